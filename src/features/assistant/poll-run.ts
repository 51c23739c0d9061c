import type { AssistantKeys, AssistantRun } from '../../api/assistants';

/** Polls a run until it is completed or failed (or the signal aborts), with a gentle back-off. */
export async function pollRun(
  fetchRun: (keys: AssistantKeys) => Promise<AssistantRun>,
  keys: AssistantKeys,
  signal: AbortSignal,
  wait = (ms: number) => new Promise((r) => setTimeout(r, ms)),
): Promise<AssistantRun> {
  let delay = 500;
  for (;;) {
    const run = await fetchRun(keys);
    if (run.status === 'completed' || run.status === 'failed' || signal.aborted) return run;
    await wait(delay);
    delay = Math.min(delay * 1.5, 3000);
  }
}
