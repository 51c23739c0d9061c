import { describe, expect, it } from 'vitest';
import type { AssistantRun } from '../../api/assistants';
import { pollRun } from './poll-run';

const keys = { assistant_key: 'a', thread_key: 't', run_key: 'r' };
const run = (status: AssistantRun['status']): AssistantRun => ({ run_key: 'r', status, error: null, messages: [] });

describe('pollRun', () => {
  it('polls through queued and in progress until completed, backing off', async () => {
    const states = [run('queued'), run('in_progress'), run('in_progress'), run('completed')];
    const waits: number[] = [];
    const result = await pollRun(
      async () => states.shift()!,
      keys,
      new AbortController().signal,
      async (ms) => void waits.push(ms),
    );
    expect(result.status).toBe('completed');
    expect(waits).toEqual([500, 750, 1125]);
  });

  it('stops at failed, and when aborted', async () => {
    expect(
      (
        await pollRun(
          async () => run('failed'),
          keys,
          new AbortController().signal,
          async () => undefined,
        )
      ).status,
    ).toBe('failed');
    const abort = new AbortController();
    abort.abort();
    expect(
      (
        await pollRun(
          async () => run('queued'),
          keys,
          abort.signal,
          async () => undefined,
        )
      ).status,
    ).toBe('queued');
  });
});
