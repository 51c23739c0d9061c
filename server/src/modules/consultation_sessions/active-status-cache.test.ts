/**
 * The active-status answer is kept until a change drops it: an unchanged answer costs no database read, a change
 * is seen at the next poll, and a read that overlapped a change is never kept.
 */
import { describe, expect, it, vi } from 'vitest';
import { BUS_RECONNECTED, createLocalEventBus } from '../../events/event-bus.js';
import { createActiveStatusCache, type ActiveStatus } from './active-status-cache.js';

const inactive: ActiveStatus = { active: false };
const active: ActiveStatus = { active: true, id: 's1', show_transcription: false, recording_state: 'recording' };

describe('active-status cache', () => {
  it('answers again from memory until a change, then reads once more', async () => {
    const cache = createActiveStatusCache(createLocalEventBus());
    const load = vi.fn(async (): Promise<ActiveStatus> => inactive);
    for (let i = 0; i < 5; i++) expect(await cache.get('u1', load)).toEqual(inactive);
    expect(load).toHaveBeenCalledTimes(1);
    cache.forget('u1');
    load.mockResolvedValueOnce(active);
    expect(await cache.get('u1', load)).toEqual(active);
    expect(load).toHaveBeenCalledTimes(2);
    // Another user's change leaves this one's answer alone.
    cache.forget('u2');
    await cache.get('u1', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not keep an answer read while a change was being written', async () => {
    const cache = createActiveStatusCache(createLocalEventBus());
    let finishRead: (v: ActiveStatus) => void = () => undefined;
    const slow = () => new Promise<ActiveStatus>((resolve) => (finishRead = resolve));
    const pending = cache.get('u1', slow);
    // The consultation starts (and its change is written) while the poll's read of the old state is on its way.
    cache.forget('u1');
    finishRead(inactive);
    expect(await pending).toEqual(inactive);
    const load = vi.fn(async (): Promise<ActiveStatus> => active);
    expect(await cache.get('u1', load)).toEqual(active);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('drops answers on another process’s change, and everything when the bus comes back after a drop', async () => {
    const bus = createLocalEventBus();
    const here = createActiveStatusCache(bus);
    const there = createActiveStatusCache(bus);
    const load = vi.fn(async (): Promise<ActiveStatus> => inactive);
    await here.get('u1', load);
    await here.get('u2', load);
    there.forget('u1');
    await here.get('u1', load);
    await here.get('u2', load);
    expect(load).toHaveBeenCalledTimes(3);
    await bus.publish(BUS_RECONNECTED, {});
    await here.get('u2', load);
    expect(load).toHaveBeenCalledTimes(4);
  });
});
