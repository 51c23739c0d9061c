import { describe, expect, it } from 'vitest';
import { SILENT_AFTER_MS, SilenceWatch } from './silence-watch';

function watch() {
  const changes: boolean[] = [];
  return { changes, watch: new SilenceWatch((silent) => changes.push(silent)) };
}

describe('SilenceWatch', () => {
  it('says so once after ten seconds of silence, and once when sound returns', () => {
    const { changes, watch: w } = watch();
    for (let t = 0; t < SILENT_AFTER_MS; t += 100) w.sample(0, t);
    expect(changes).toEqual([]);
    for (let t = SILENT_AFTER_MS; t < SILENT_AFTER_MS + 3000; t += 100) w.sample(0, t);
    expect(changes).toEqual([true]);
    w.sample(0.05, SILENT_AFTER_MS + 3000);
    w.sample(0.05, SILENT_AFTER_MS + 3100);
    expect(changes).toEqual([true, false]);
  });

  it('a quiet room is not silence: the noise of a working microphone keeps it quiet', () => {
    const { changes, watch: w } = watch();
    for (let t = 0; t < 30_000; t += 100) w.sample(0.001, t);
    expect(changes).toEqual([]);
  });

  it('a sound in the middle starts the count again', () => {
    const { changes, watch: w } = watch();
    for (let t = 0; t < 8000; t += 100) w.sample(0, t);
    w.sample(0.2, 8000);
    for (let t = 8100; t < 17_000; t += 100) w.sample(0, t);
    expect(changes).toEqual([]);
    w.sample(0, 18_200);
    expect(changes).toEqual([true]);
  });

  it('a pause resets it: the warning goes and the count starts again on resume', () => {
    const { changes, watch: w } = watch();
    for (let t = 0; t <= 11_000; t += 100) w.sample(0, t);
    w.reset();
    expect(changes).toEqual([true, false]);
    for (let t = 20_000; t < 29_000; t += 100) w.sample(0, t);
    expect(changes).toEqual([true, false]);
  });
});
