/**
 * The hook for omission-list recall: when the note writer returns its own list of stretches that were said but
 * not put in the note, this is where the report reads it, to measure how many of the missed reference facts the
 * list names. No writer returns one yet, so it gives undefined and the report prints n/a.
 */
export function omissionsOf(_note: string, _transcript: string): string[] | undefined {
  return undefined;
}
