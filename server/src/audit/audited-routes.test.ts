import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { AUDITED_ROUTES, NOT_PATIENT_DATA, PATIENT_DATA_PREFIXES } from './audited-routes.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The app's own route table (collected as routes were registered), HEAD folded into GET. */
const registered = () => [...new Set(t.app.auditLog.routes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS').map((r) => `${r.method} ${r.url}`))];
const underPatientData = (key: string) => PATIENT_DATA_PREFIXES.some((p) => key.split(' ')[1]!.startsWith(p));

describe('the table of audited routes', () => {
  it('classifies every route under the patient-data paths: audited, or not patient data with a reason', () => {
    const routes = registered().filter(underPatientData);
    expect(routes.length).toBeGreaterThan(50);
    const forgotten = routes.filter((key) => !(key in AUDITED_ROUTES) && !(key in NOT_PATIENT_DATA));
    expect(forgotten).toEqual([]);
  });

  it('names only routes that exist, each in one list only', () => {
    const all = new Set(registered());
    expect(Object.keys(AUDITED_ROUTES).filter((key) => !all.has(key))).toEqual([]);
    expect(Object.keys(NOT_PATIENT_DATA).filter((key) => !all.has(key))).toEqual([]);
    expect(Object.keys(AUDITED_ROUTES).filter((key) => key in NOT_PATIENT_DATA)).toEqual([]);
  });

  it('leaves the 5-second active-status poll out', () => {
    expect(NOT_PATIENT_DATA['GET /v1/consultation_sessions/active/status']).toBeTruthy();
    expect(AUDITED_ROUTES['GET /v1/consultation_sessions/active/status']).toBeUndefined();
  });
});
