import { describe, expect, it } from 'vitest';
import { ApiFailureError, type ApiFailure } from '../../api/client';
import { isGone, sessionLoadProblem } from './session-load-problem';

const http = (status: number, code: string) => new ApiFailureError({ kind: 'http', status, code, message: '', fields: {} });
const other = (failure: ApiFailure) => new ApiFailureError(failure);

describe('why a consultation could not be loaded', () => {
  it('says "offline" only when no answer came', () => {
    expect(sessionLoadProblem(other({ kind: 'network' }), true)).toBe('offline');
    expect(sessionLoadProblem(other({ kind: 'timeout' }), false)).toBe('offline');
    expect(sessionLoadProblem(new Error('the local database refused a write'), true)).toBe('failed');
  });

  it('tells a deleted consultation from one never seen, and both from a busy server', () => {
    expect(sessionLoadProblem(http(410, 'consultation_deleted'), false)).toBe('deleted');
    // The sweep removed the row: the server cannot tell, this device can (it had the consultation).
    expect(sessionLoadProblem(http(404, 'not_found'), true)).toBe('deleted');
    expect(sessionLoadProblem(http(404, 'not_found'), false)).toBe('not_found');
    expect(sessionLoadProblem(http(503, 'internal_error'), true)).toBe('overloaded');
    expect(sessionLoadProblem(http(429, 'too_many_requests'), true)).toBe('overloaded');
    expect(sessionLoadProblem(http(400, 'invalid_request'), true)).toBe('failed');
  });

  it('gives up on a consultation the server no longer has', () => {
    expect(['deleted', 'not_found', 'offline', 'overloaded', 'failed', undefined].map((p) => isGone(p as never))).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});
