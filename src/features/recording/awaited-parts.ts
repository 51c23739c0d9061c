/**
 * The parts the notes still wait for, as this device shows them. The server says how long is left of its wait when
 * it answers; the deadline is kept on this device's clock from then, so a device whose clock is off still counts
 * down to the moment the server writes the document without the missing parts.
 */
import type { AwaitedParts, RecordingDevice } from '../../../contract/consultations';
import { formatElapsed } from './format-duration';

export type MissingStretch = { first_order: number; last_order: number; device: RecordingDevice | null };
export type AwaitedOnDevice = { missing: MissingStretch[]; deadline: number };

export function awaitedOnDevice(awaited: AwaitedParts | undefined, receivedAt = Date.now()): AwaitedOnDevice | null {
  if (!awaited?.missing.length) return null;
  return { missing: awaited.missing, deadline: receivedAt + Math.max(0, awaited.write_without_in_ms) };
}

/** Milliseconds left before the document is written without the missing parts; never below zero. */
export const timeLeft = (deadline: number, now = Date.now()) => Math.max(0, deadline - now);

/** "7:40": whole seconds, rounded up, so that 0:00 shows only when the wait is over. */
export const formatCountdown = (ms: number) => formatElapsed(Math.ceil(Math.max(0, ms) / 1000) * 1000);

/** How many parts are missing in all. */
export const missingCount = (missing: MissingStretch[]) => missing.reduce((sum, s) => sum + s.last_order - s.first_order + 1, 0);
