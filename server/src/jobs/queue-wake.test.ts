import { describe, expect, it } from 'vitest';
import { createLocalEventBus } from '../events/event-bus.js';
import { queueElsewhere, WAKE_EVERY_MS, wakeOnRequest } from './queue-wake.js';

function counted() {
  const bus = createLocalEventBus();
  let woken = 0;
  wakeOnRequest(bus, 'transcription', { wake: () => void woken++, stop: async () => undefined, drain: async () => undefined });
  return { bus, woken: () => woken };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('waking the workers of other processes', () => {
  it('sends a burst of wakes as one at once and one when the burst is over, never dropping the last', async () => {
    const { bus, woken } = counted();
    const queue = queueElsewhere(bus, 'transcription', () => undefined);
    for (let i = 0; i < 200; i++) queue.wake();
    await sleep(0);
    expect(woken()).toBe(1);
    await sleep(WAKE_EVERY_MS * 3);
    // The parts stored after the first wake are announced too.
    expect(woken()).toBe(2);
    queue.wake();
    await sleep(0);
    expect(woken()).toBe(3);
  });

  it('sends a wake still waiting when the process stops', async () => {
    const { bus, woken } = counted();
    const queue = queueElsewhere(bus, 'transcription', () => undefined);
    queue.wake();
    queue.wake();
    await queue.stop();
    await sleep(0);
    expect(woken()).toBe(2);
    await sleep(WAKE_EVERY_MS * 2);
    expect(woken()).toBe(2);
  });

  it('wakes only the queue named', async () => {
    const { bus, woken } = counted();
    queueElsewhere(bus, 'ocr', () => undefined).wake();
    await sleep(0);
    expect(woken()).toBe(0);
  });
});
