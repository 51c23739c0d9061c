import { describe, expect, it } from 'vitest';
import type { RecorderSpan } from '../../db/schema.js';
import { awaitedParts } from './view.js';

const finishedAt = new Date('2026-03-02T10:00:00Z');
const session = (over: Partial<Parameters<typeof awaitedParts>[0]> = {}): Parameters<typeof awaitedParts>[0] => ({
  status: 'finished',
  expectedParts: 4,
  finishedAt,
  transcriptionOverride: null,
  recorderSpans: [] as RecorderSpan[],
  ...over,
});
const stored = (...orders: number[]) => orders.map((order) => ({ order }));
const WAIT = 600_000;

describe('the parts the notes wait for', () => {
  it('are the named parts not stored, in stretches by device, with the time left', () => {
    const spans: RecorderSpan[] = [
      { from: 0, device: 'computer' },
      { from: 2, device: 'phone' },
    ];
    const now = finishedAt.getTime() + 140_000;
    expect(awaitedParts(session({ expectedParts: 6, recorderSpans: spans }), stored(0, 4), WAIT, now)).toEqual({
      missing: [
        { first_order: 1, last_order: 1, device: 'computer' },
        { first_order: 2, last_order: 3, device: 'phone' },
        { first_order: 5, last_order: 5, device: 'phone' },
      ],
      write_without_at: '2026-03-02T10:10:00.000Z',
      write_without_in_ms: 460_000,
    });
  });

  it('are none when every named part is here, when the wait is over, when the clinician wrote the transcript, or nothing was named', () => {
    const now = finishedAt.getTime() + 1000;
    expect(awaitedParts(session(), stored(0, 1, 2, 3), WAIT, now)).toBeNull();
    expect(awaitedParts(session(), stored(0), WAIT, finishedAt.getTime() + WAIT)).toBeNull();
    expect(awaitedParts(session({ transcriptionOverride: 'typed' }), stored(0), WAIT, now)).toBeNull();
    expect(awaitedParts(session({ expectedParts: null }), stored(0), WAIT, now)).toBeNull();
    expect(awaitedParts(session({ status: 'active', finishedAt: null }), stored(0), WAIT, now)).toBeNull();
  });

  it('name no device when none was told', () => {
    expect(awaitedParts(session({ expectedParts: 2 }), [], WAIT, finishedAt.getTime())?.missing).toEqual([{ first_order: 0, last_order: 1, device: null }]);
  });
});
