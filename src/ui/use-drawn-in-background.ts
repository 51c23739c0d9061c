import { useDeferredValue } from 'react';

/**
 * A value that arrives from the server, held back until what it brings to the screen has been drawn as background
 * work, in slices between which a slow phone stays responsive (one long task otherwise). Only its first appearance:
 * once drawn, every later change shows at once (a finish above all).
 */
export function useDrawnInBackground<T>(value: T | undefined): T | undefined {
  const drawn = useDeferredValue(value !== undefined);
  return drawn ? value : undefined;
}
