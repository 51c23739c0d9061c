const keys = new WeakMap<object, number>();
let next = 0;

/**
 * A React key for an item that has no id of its own (a draft's section, a chosen file): the same object keeps
 * its key while the list around it changes, and an item replaced by a new object gets a new one.
 */
export function objectKey(item: object): number {
  let key = keys.get(item);
  if (key === undefined) {
    key = next++;
    keys.set(item, key);
  }
  return key;
}
