/**
 * The authorization matrix: every action (list, read, create, update, delete, download) on every resource an
 * organization shares (the organization, its members, invitations, member history, credits, research spaces with
 * their trials, criteria, patients and PDFs, screenings and results), tried by every kind of caller:
 *
 *   current members (the space's creator and another member), a current admin, controls from outside (the admin
 *   of another organization, a clinician with no organization, a caller without a token), and the three whose
 *   rights changed after they signed in: a member removed from the organization (who created the space), an
 *   admin demoted to member, and a member whose account was deleted (their token kept).
 *
 * Rights follow the database at the time of the call, never authorship or what was true when the token was
 * issued. A few personal resources (a consultation, a template, a custom document request) are in the table
 * too, to show they are not shared with the organization, not even with its admin.
 *
 * The cases come from the table below (actor × action → allowed or not); the figures are printed and asserted.
 * Every refused call must also leave the organization's rows (and the owner's personal rows, and the stored
 * files) exactly as they were.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { Response as InjectResponse } from 'light-my-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIA3_DESCRIPTION, textRecordPdf } from '../../../tests/fixtures/patient-records.js';
import type { TextGenerator } from '../ai/text-generator.js';
import { creditLedger, evaluationResults, organizations, researchSpaces, trialScreenings, users } from '../db/schema.js';
import { grantCredits } from '../modules/credits/service.js';
import { bearer, createUser, getUserRow, login, uniqueEmail } from '../test-support/factories.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';

type ActorName = 'creator' | 'member' | 'admin' | 'demoted_admin' | 'removed_creator' | 'deleted_account' | 'outsider' | 'loner' | 'stranger';
type Actor = { name: ActorName; id: string | undefined; headers: Record<string, string>; remoteAddress: string };
type Req = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: unknown; headers?: Record<string, string> };

/** Who the table says may do an action. */
type Who = 'members' | 'admins' | 'space_author_or_admin' | 'owner';
const CURRENT_MEMBERS: ActorName[] = ['creator', 'member', 'admin', 'demoted_admin'];
const MAY: Record<Who, ActorName[]> = { members: CURRENT_MEMBERS, admins: ['admin'], space_author_or_admin: ['creator', 'admin'], owner: ['member'] };
/** A call without a live token must be answered 401, whatever it asks for. */
const NO_LIVE_TOKEN: ActorName[] = ['stranger', 'deleted_account'];

type Action = {
  resource: string;
  kind: 'list' | 'read' | 'create' | 'update' | 'delete' | 'download';
  what: string;
  who: Who;
  /** The request, made for this actor; actions that use up their target make a fresh one first. */
  request: (actor: Actor) => Promise<Req>;
  /** For calls not addressed by the organization's ids (lists, "my" credits): did the organization's data come back? */
  granted?: (res: InjectResponse) => Promise<boolean> | boolean;
  /** After an allowed call: wait for its background work, or undo what would change the next case. */
  after?: () => Promise<void>;
};

type Outcome = { actor: ActorName; action: string; expected: 'allow' | 'deny'; status: number; got: 'allow' | 'deny'; problem?: string };

const pdf = (label: string) =>
  textRecordPdf([`Patient ${label}`, 'Age: 61', 'Type 2 diabetes mellitus since 2015.', 'HbA1c 8.2 %.', 'eGFR 74 mL/min.', 'Not pregnant.']);

function multipartPdf(label: string) {
  const boundary = '----cn-matrix';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="label"\r\n\r\n${label}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${label}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    pdf(label),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

let t: TestApp;
let ip = 0;
/** Each setup call comes from its own address, so route rate limits never decide a case. */
const nextAddress = () => `10.${Math.floor(++ip / 250) % 250}.${ip % 250}.9`;

/** A setup call that must succeed. */
async function setupCall(app: TestApp, headers: Record<string, string>, req: Req) {
  const res = await app.app.inject({
    method: req.method,
    url: req.url,
    payload: req.payload as string,
    headers: { ...headers, ...req.headers },
    remoteAddress: nextAddress(),
  });
  if (res.statusCode >= 300) throw new Error(`setup ${req.method} ${req.url}: ${res.statusCode} ${res.body}`);
  return res;
}

describe('authorization matrix', () => {
  const as = (headers: Record<string, string>, req: Req) => setupCall(t, headers, req);
  const actors = {} as Record<ActorName, Actor>;
  const ids = {} as Record<'orgA' | 'orgB' | 'admin2' | 'colleague', string>;
  const space = {} as { id: string; base: string; trial: string; criterion: string; patient: string; file: string; screening: string; result: string };
  const personal = {} as { consultation: string; customRequest: string; template: string };
  const TEMPLATES = '/v1/processor_inputs/consultation_notes_template/templates';
  const GRANT_NOTE = 'matrix organization grant';

  /** The designed memberships, put back after an allowed call that changes one (leave). */
  const memberships: [ActorName, 'admin' | 'member'][] = [
    ['creator', 'member'],
    ['member', 'member'],
    ['admin', 'admin'],
    ['demoted_admin', 'member'],
  ];
  async function restoreMemberships() {
    for (const [name, role] of memberships)
      await t.ctx.db.update(users).set({ organizationId: ids.orgA, organizationRole: role }).where(eq(users.id, actors[name].id!));
  }

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '10000' });
    const [orgA] = await t.ctx.db.insert(organizations).values({ name: 'Hospital Matrix' }).returning();
    const [orgB] = await t.ctx.db.insert(organizations).values({ name: 'Elsewhere' }).returning();
    ids.orgA = orgA!.id;
    ids.orgB = orgB!.id;
    const people: [ActorName, string | null, 'admin' | 'member' | null][] = [
      ['creator', ids.orgA, 'member'],
      ['member', ids.orgA, 'member'],
      ['admin', ids.orgA, 'admin'],
      ['demoted_admin', ids.orgA, 'admin'],
      ['removed_creator', ids.orgA, 'member'],
      ['deleted_account', ids.orgA, 'member'],
      ['outsider', ids.orgB, 'admin'],
      ['loner', null, null],
    ];
    let n = 0;
    for (const [name, organizationId, organizationRole] of people) {
      const u = await createUser(t, { name: `Dr. ${name}`, organizationId, organizationRole });
      actors[name] = { name, id: u.id, headers: bearer(await login(t, u.email, u.password)), remoteAddress: `192.0.2.${++n}` };
    }
    actors.stranger = { name: 'stranger', id: undefined, headers: {}, remoteAddress: '198.51.100.7' };
    ids.admin2 = (await createUser(t, { name: 'Dr. second admin', organizationId: ids.orgA, organizationRole: 'admin' })).id;
    ids.colleague = (await createUser(t, { name: 'Dr. colleague', organizationId: ids.orgA, organizationRole: 'member' })).id;
    await grantCredits(t.ctx.db, { organizationId: ids.orgA }, 50, GRANT_NOTE);

    // The organization's research space, made by the member who will be removed.
    const by = actors.removed_creator.headers;
    space.id = (await as(by, { method: 'POST', url: '/v1/research_spaces', payload: { research_space: { name: 'Oncology' } } })).json().research_space.id;
    space.base = `/v1/research_spaces/${space.id}`;
    space.trial = (
      await as(by, { method: 'POST', url: `${space.base}/trials`, payload: { trial: { name: 'DIA-3', description: DIA3_DESCRIPTION } } })
    ).json().trial.id;
    space.criterion = (await as(by, { method: 'POST', url: `${space.base}/trials/${space.trial}/criteria/generate` })).json().criteria[0].id;
    const upload = multipartPdf('0042');
    const patient = (await as(by, { method: 'POST', url: `${space.base}/patients`, payload: upload.payload, headers: upload.headers })).json().patient;
    space.patient = patient.id;
    space.file = patient.files[0].id;
    space.screening = (await as(by, { method: 'POST', url: `${space.base}/trials/${space.trial}/screenings` })).json().screening.id;
    await screeningsSettled();
    space.result = (await as(by, { method: 'GET', url: `${space.base}/results` })).json().results[0].id;

    // What is the member's own: never shared with the organization.
    const mine = actors.member.headers;
    personal.consultation = (
      await as(mine, { method: 'POST', url: '/v1/consultation_sessions', payload: { consultation_type_id: 'general_consultation' } })
    ).json().consultation_session.id;
    personal.customRequest = (
      await as(mine, { method: 'POST', url: '/v1/custom_document_requests', payload: { custom_document_request: { title: 'Discharge letter' } } })
    ).json().custom_document_request.id;
    personal.template = (
      await as(mine, { method: 'POST', url: TEMPLATES, payload: { template: { name: 'Short SOAP', template: 'S: O: A: P:' } } })
    ).json().template.id;

    // Then the changes of rights, through the API, while their tokens stay in hand.
    const admin = actors.admin.headers;
    await as(admin, { method: 'DELETE', url: `/v1/organizations/${ids.orgA}/members/${actors.removed_creator.id}` });
    await as(admin, { method: 'PUT', url: `/v1/organizations/${ids.orgA}/members/${actors.demoted_admin.id}`, payload: { role: 'member' } });
    await as(actors.deleted_account.headers, { method: 'DELETE', url: '/v1/account' });
    expect(await getUserRow(t, actors.removed_creator.id!)).toMatchObject({ organizationId: null, organizationRole: null });
    expect(await getUserRow(t, actors.demoted_admin.id!)).toMatchObject({ organizationId: ids.orgA, organizationRole: 'member' });
    expect(await getUserRow(t, actors.deleted_account.id!)).toBeUndefined();
    const [s] = await t.ctx.db.select().from(researchSpaces).where(eq(researchSpaces.id, space.id));
    expect(s).toMatchObject({ createdBy: actors.removed_creator.id, organizationId: ids.orgA });
  }, 120_000);
  afterAll(() => t.close());

  async function screeningsSettled() {
    for (let i = 0; i < 400; i++) {
      const running = await t.ctx.db.select({ id: trialScreenings.id }).from(trialScreenings).where(eq(trialScreenings.status, 'running'));
      if (running.length === 0) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('a screening did not finish');
  }

  // Fresh targets for the actions that use theirs up, made by the admin (or the owner) through the API.
  const admin = () => actors.admin.headers;
  async function freshSpace(author: 'creator' | 'removed_creator') {
    const id: string = (await as(admin(), { method: 'POST', url: '/v1/research_spaces', payload: { research_space: { name: 'To delete' } } })).json()
      .research_space.id;
    await t.ctx.db.update(researchSpaces).set({ createdBy: actors[author].id }).where(eq(researchSpaces.id, id));
    return id;
  }
  const freshTrial = async (description = ''): Promise<string> =>
    (await as(admin(), { method: 'POST', url: `${space.base}/trials`, payload: { trial: { name: 'Spare', description } } })).json().trial.id;
  const freshCriterion = async (): Promise<string> =>
    (
      await as(admin(), {
        method: 'POST',
        url: `${space.base}/trials/${space.trial}/criteria`,
        payload: { criterion: { definition: 'Spare criterion', type: 'non_critical_inclusion' } },
      })
    ).json().criterion.id;
  async function freshPatient(): Promise<string> {
    const upload = multipartPdf(`spare-${++ip}`);
    return (await as(admin(), { method: 'POST', url: `${space.base}/patients`, payload: upload.payload, headers: upload.headers })).json().patient.id;
  }
  async function freshResult(): Promise<string> {
    const trialId = await freshTrial();
    const [row] = await t.ctx.db
      .insert(evaluationResults)
      .values({
        trialId,
        patientId: space.patient,
        preEvaluation: 'fit',
        criteriaMet: 1,
        criteriaTotal: 1,
        criteria: [],
        status: 'in_review',
        engine: 'offline',
      })
      .returning();
    return row!.id;
  }
  async function freshInvitation(): Promise<string> {
    const email = uniqueEmail('invitee');
    const res = await as(admin(), { method: 'POST', url: `/v1/organizations/${ids.orgA}/invitations`, payload: { emails: [email] } });
    return res.json().invitations.find((i: { email: string }) => i.email === email).id;
  }
  const freshMember = async () => (await createUser(t, { name: 'Dr. spare', organizationId: ids.orgA, organizationRole: 'member' })).id;
  const freshCustomRequest = async (): Promise<string> =>
    (await as(actors.member.headers, { method: 'POST', url: '/v1/custom_document_requests', payload: { custom_document_request: { title: 'Spare' } } })).json()
      .custom_document_request.id;
  const freshTemplate = async (): Promise<string> =>
    (await as(actors.member.headers, { method: 'POST', url: TEMPLATES, payload: { template: 'Spare template' } })).json().template.id;

  const org = () => `/v1/organizations/${ids.orgA}`;
  const get = (url: () => string) => async (): Promise<Req> => ({ method: 'GET', url: url() });

  const ACTIONS: Action[] = [
    // The organization, its members and invitations.
    {
      resource: 'organizations',
      kind: 'list',
      what: 'GET /v1/organizations lists it',
      who: 'members',
      request: get(() => '/v1/organizations'),
      granted: (r) => r.statusCode === 200 && r.json().organizations.some((o: { id: string }) => o.id === ids.orgA),
    },
    { resource: 'organization', kind: 'read', what: 'GET organization with its members', who: 'members', request: get(org) },
    { resource: 'invitations', kind: 'list', what: 'GET invitations', who: 'admins', request: get(() => `${org()}/invitations`) },
    {
      resource: 'invitations',
      kind: 'create',
      what: 'POST invitations',
      who: 'admins',
      request: async () => ({ method: 'POST', url: `${org()}/invitations`, payload: { emails: [uniqueEmail('new')] } }),
    },
    {
      resource: 'invitations',
      kind: 'update',
      what: 'POST invitation resend',
      who: 'admins',
      request: async () => ({ method: 'POST', url: `${org()}/invitations/${await freshInvitation()}/resend` }),
    },
    {
      resource: 'invitations',
      kind: 'delete',
      what: 'DELETE invitation',
      who: 'admins',
      request: async () => ({ method: 'DELETE', url: `${org()}/invitations/${await freshInvitation()}` }),
    },
    {
      resource: 'members',
      kind: 'update',
      what: "PUT a member's role",
      who: 'admins',
      request: async () => ({ method: 'PUT', url: `${org()}/members/${await freshMember()}`, payload: { role: 'admin' } }),
    },
    {
      resource: 'members',
      kind: 'delete',
      what: 'DELETE a member',
      who: 'admins',
      request: async () => ({ method: 'DELETE', url: `${org()}/members/${await freshMember()}` }),
    },
    {
      resource: 'member history',
      kind: 'read',
      what: "GET a colleague's history",
      who: 'admins',
      request: get(() => `${org()}/members/${ids.colleague}/history`),
    },
    {
      resource: 'member history',
      kind: 'read',
      what: 'GET my own history in the organization',
      who: 'members',
      request: async (a) => ({ method: 'GET', url: `${org()}/members/${a.id ?? ids.colleague}/history` }),
    },
    {
      resource: 'membership',
      kind: 'delete',
      what: 'POST leave',
      who: 'members',
      request: async () => ({ method: 'POST', url: `${org()}/leave` }),
      after: restoreMemberships,
    },
    // Credits: the organization's balance and ledger.
    {
      resource: 'credits',
      kind: 'read',
      what: "GET /v1/credits shows the organization's ledger",
      who: 'members',
      request: get(() => '/v1/credits'),
      granted: (r) =>
        r.statusCode === 200 &&
        r.json().credits.shared_with_organization === true &&
        r.json().credits.ledger.some((l: { note: string | null }) => l.note === GRANT_NOTE),
    },
    // Research spaces.
    {
      resource: 'research spaces',
      kind: 'list',
      what: 'GET /v1/research_spaces lists it',
      who: 'members',
      request: get(() => '/v1/research_spaces'),
      granted: (r) => r.statusCode === 200 && r.json().research_spaces.some((s: { id: string }) => s.id === space.id),
    },
    {
      resource: 'research spaces',
      kind: 'create',
      what: 'POST /v1/research_spaces makes one in the organization',
      who: 'members',
      request: async () => ({ method: 'POST', url: '/v1/research_spaces', payload: { research_space: { name: 'New' } } }),
      granted: async (r) => {
        if (r.statusCode !== 201) return false;
        const [row] = await t.ctx.db.select().from(researchSpaces).where(eq(researchSpaces.id, r.json().research_space.id));
        return row?.organizationId === ids.orgA;
      },
    },
    { resource: 'research space', kind: 'read', what: 'GET space', who: 'members', request: get(() => space.base) },
    {
      resource: 'research space',
      kind: 'update',
      what: 'PUT space (rename)',
      who: 'members',
      request: async () => ({ method: 'PUT', url: space.base, payload: { research_space: { name: `Oncology ${++ip}` } } }),
    },
    {
      resource: 'research space',
      kind: 'delete',
      what: 'DELETE a space its creator made (creator still a member)',
      who: 'space_author_or_admin',
      request: async () => ({ method: 'DELETE', url: `/v1/research_spaces/${await freshSpace('creator')}` }),
    },
    {
      resource: 'research space',
      kind: 'delete',
      what: 'DELETE a space the removed member made',
      who: 'admins',
      request: async () => ({ method: 'DELETE', url: `/v1/research_spaces/${await freshSpace('removed_creator')}` }),
    },
    // Trials and criteria.
    { resource: 'trials', kind: 'list', what: 'GET trials', who: 'members', request: get(() => `${space.base}/trials`) },
    {
      resource: 'trials',
      kind: 'create',
      what: 'POST trial',
      who: 'members',
      request: async () => ({ method: 'POST', url: `${space.base}/trials`, payload: { trial: { name: 'ONC-2' } } }),
    },
    { resource: 'trials', kind: 'read', what: 'GET trial', who: 'members', request: get(() => `${space.base}/trials/${space.trial}`) },
    {
      resource: 'trials',
      kind: 'update',
      what: 'PUT trial',
      who: 'members',
      request: async () => ({
        method: 'PUT',
        url: `${space.base}/trials/${space.trial}`,
        payload: { trial: { name: 'DIA-3', description: DIA3_DESCRIPTION } },
      }),
    },
    {
      resource: 'trials',
      kind: 'delete',
      what: 'DELETE trial',
      who: 'members',
      request: async () => ({ method: 'DELETE', url: `${space.base}/trials/${await freshTrial()}` }),
    },
    {
      resource: 'criteria',
      kind: 'create',
      what: 'POST criterion',
      who: 'members',
      request: async () => ({
        method: 'POST',
        url: `${space.base}/trials/${space.trial}/criteria`,
        payload: { criterion: { definition: 'Adults', type: 'critical_inclusion' } },
      }),
    },
    {
      resource: 'criteria',
      kind: 'create',
      what: 'POST criteria/generate',
      who: 'members',
      request: async () => ({ method: 'POST', url: `${space.base}/trials/${await freshTrial(DIA3_DESCRIPTION)}/criteria/generate` }),
    },
    {
      resource: 'criteria',
      kind: 'update',
      what: 'PUT criterion',
      who: 'members',
      request: async () => ({
        method: 'PUT',
        url: `${space.base}/trials/${space.trial}/criteria/${space.criterion}`,
        payload: { criterion: { definition: `Type 2 diabetes (${++ip})`, type: 'critical_inclusion' } },
      }),
    },
    {
      resource: 'criteria',
      kind: 'delete',
      what: 'DELETE criterion',
      who: 'members',
      request: async () => ({ method: 'DELETE', url: `${space.base}/trials/${space.trial}/criteria/${await freshCriterion()}` }),
    },
    // Patients and their PDFs.
    { resource: 'patients', kind: 'list', what: 'GET patients', who: 'members', request: get(() => `${space.base}/patients`) },
    {
      resource: 'patients',
      kind: 'create',
      what: 'POST patient (PDF upload)',
      who: 'members',
      request: async () => {
        const upload = multipartPdf(`new-${++ip}`);
        return { method: 'POST', url: `${space.base}/patients`, payload: upload.payload, headers: upload.headers };
      },
    },
    {
      resource: 'patient files',
      kind: 'download',
      what: "GET another member's patient PDF",
      who: 'members',
      request: get(() => `${space.base}/patients/${space.patient}/files/${space.file}`),
    },
    {
      resource: 'patients',
      kind: 'delete',
      what: 'DELETE patient',
      who: 'members',
      request: async () => ({ method: 'DELETE', url: `${space.base}/patients/${await freshPatient()}` }),
    },
    // Screenings and results.
    { resource: 'screenings', kind: 'list', what: 'GET screenings', who: 'members', request: get(() => `${space.base}/trials/${space.trial}/screenings`) },
    {
      resource: 'screenings',
      kind: 'read',
      what: 'GET screening',
      who: 'members',
      request: get(() => `${space.base}/trials/${space.trial}/screenings/${space.screening}`),
    },
    {
      resource: 'screenings',
      kind: 'create',
      what: 'POST screening',
      who: 'members',
      request: async () => ({ method: 'POST', url: `${space.base}/trials/${space.trial}/screenings` }),
      after: screeningsSettled,
    },
    { resource: 'results', kind: 'list', what: 'GET results', who: 'members', request: get(() => `${space.base}/results`) },
    { resource: 'results', kind: 'download', what: 'GET results.csv', who: 'members', request: get(() => `${space.base}/results.csv?trial_id=${space.trial}`) },
    {
      resource: 'results',
      kind: 'update',
      what: 'PUT result (review)',
      who: 'members',
      request: async () => ({ method: 'PUT', url: `${space.base}/results/${space.result}`, payload: { result: { status: 'approved' } } }),
    },
    {
      resource: 'results',
      kind: 'delete',
      what: 'DELETE result',
      who: 'members',
      request: async () => ({ method: 'DELETE', url: `${space.base}/results/${await freshResult()}` }),
    },
    // Personal resources: the member's own, not the organization's.
    {
      resource: 'consultation (personal)',
      kind: 'read',
      what: "GET a member's consultation",
      who: 'owner',
      request: get(() => `/v1/consultation_sessions/${personal.consultation}`),
    },
    {
      resource: 'consultation (personal)',
      kind: 'read',
      what: "GET a member's transcription",
      who: 'owner',
      request: get(() => `/v1/consultation_sessions/${personal.consultation}/transcription`),
    },
    {
      resource: 'custom document request (personal)',
      kind: 'read',
      what: "GET a member's custom document request",
      who: 'owner',
      request: get(() => `/v1/custom_document_requests/${personal.customRequest}`),
    },
    {
      resource: 'custom document request (personal)',
      kind: 'delete',
      what: "DELETE a member's custom document request",
      who: 'owner',
      request: async () => ({ method: 'DELETE', url: `/v1/custom_document_requests/${await freshCustomRequest()}` }),
    },
    {
      resource: 'template (personal)',
      kind: 'update',
      what: "PUT a member's template",
      who: 'owner',
      request: async () => ({ method: 'PUT', url: `${TEMPLATES}/${personal.template}`, payload: { template: `Changed ${++ip}` } }),
    },
    {
      resource: 'template (personal)',
      kind: 'delete',
      what: "DELETE a member's template",
      who: 'owner',
      request: async () => ({ method: 'DELETE', url: `${TEMPLATES}/${await freshTemplate()}` }),
    },
  ];

  /**
   * A fingerprint of every row a refused call must not touch: the organization's (members, invitations, ledger,
   * research data under its spaces), the member's personal rows, and the stored files.
   */
  async function fingerprint(): Promise<Record<string, string>> {
    const A = `'${ids.orgA}'`;
    const spaces = `select id from research_spaces where organization_id = ${A}`;
    const trials = `select id from clinical_trials where space_id in (${spaces})`;
    const patients = `select id from research_patients where space_id in (${spaces})`;
    const owner = `'${actors.member.id}'`;
    const scoped: Record<string, string> = {
      users: `select id, organization_id, organization_role, email, password_hash from users where organization_id = ${A} or id in (${Object.values(actors)
        .filter((a) => a.id)
        .map((a) => `'${a.id}'`)
        .join(', ')})`,
      organization_invitations: `select * from organization_invitations where organization_id = ${A}`,
      credit_ledger: `select * from credit_ledger where organization_id = ${A}`,
      research_spaces: `select * from research_spaces where organization_id = ${A}`,
      clinical_trials: `select * from clinical_trials where id in (${trials})`,
      trial_criteria: `select * from trial_criteria where trial_id in (${trials})`,
      research_patients: `select * from research_patients where id in (${patients})`,
      research_patient_files: `select * from research_patient_files where patient_id in (${patients})`,
      trial_screenings: `select * from trial_screenings where trial_id in (${trials})`,
      evaluation_results: `select * from evaluation_results where trial_id in (${trials})`,
      consultation_sessions: `select * from consultation_sessions where user_id = ${owner}`,
      custom_document_requests: `select * from custom_document_requests where user_id = ${owner}`,
      processor_input_templates: `select * from processor_input_templates where user_id = ${owner}`,
    };
    const out: Record<string, string> = {};
    for (const [table, query] of Object.entries(scoped)) {
      const result = await t.ctx.db.execute(
        sql.raw(`select count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from (${query}) x`),
      );
      // Both drivers answer { rows }; drizzle's shared database type leaves the shape unknown.
      const row = (result as unknown as { rows: { n: number; h: string }[] }).rows[0]!;
      out[table] = `${row.n}:${row.h}`;
    }
    out.files = listFiles(path.join(t.dataDir, 'files')).join('\n');
    return out;
  }
  function listFiles(dir: string): string[] {
    let entries;
    try {
      entries = readdirSync(dir, { recursive: true, withFileTypes: true });
    } catch {
      return [];
    }
    return entries
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .map((f) => `${path.relative(dir, f)} ${statSync(f).size}`)
      .sort();
  }

  it('allows exactly what the table says, and a refused call changes nothing', async () => {
    const outcomes: Outcome[] = [];
    const allowedWrites: { case: string; seen: boolean }[] = [];
    const order: ActorName[] = ['creator', 'member', 'admin', 'demoted_admin', 'removed_creator', 'deleted_account', 'outsider', 'loner', 'stranger'];
    for (const action of ACTIONS) {
      for (const name of order) {
        const actor = actors[name];
        const expected = MAY[action.who].includes(name) ? 'allow' : 'deny';
        const req = await action.request(actor);
        const writes = req.method !== 'GET';
        const before = expected === 'deny' || writes ? await fingerprint() : undefined;
        const res = await t.app.inject({
          method: req.method,
          url: req.url,
          payload: req.payload as string,
          headers: { ...actor.headers, ...req.headers },
          remoteAddress: actor.remoteAddress,
        });
        const granted = action.granted ? await action.granted(res) : res.statusCode >= 200 && res.statusCode < 300;
        const outcome: Outcome = {
          actor: name,
          action: `${action.resource}: ${action.what}`,
          expected,
          status: res.statusCode,
          got: granted ? 'allow' : 'deny',
        };
        const changed = before ? await fingerprint().then((after) => Object.keys(before).filter((k) => before[k] !== after[k])) : [];
        if (!granted) {
          // A refusal is a refusal: 401 without a live token, otherwise 403/404 (or, for a list, the list without the organization's data).
          const okStatuses = NO_LIVE_TOKEN.includes(name) ? [401] : action.granted ? [200, 201, 403, 404] : [403, 404];
          if (expected === 'deny' && !okStatuses.includes(res.statusCode))
            outcome.problem = `refused with ${res.statusCode}, expected one of ${okStatuses.join('/')}: ${res.body.slice(0, 200)}`;
          if (changed.length) outcome.problem = `${outcome.problem ? `${outcome.problem}; ` : ''}refused call changed ${changed.join(', ')}`;
        } else if (expected === 'allow') {
          // The control: an allowed write shows in the fingerprint, so an unchanged one after a refusal means something.
          if (writes) allowedWrites.push({ case: `${name} × ${action.what}`, seen: changed.length > 0 });
          await action.after?.();
        }
        if (granted !== (expected === 'allow') && !outcome.problem)
          outcome.problem = `${granted ? 'allowed' : 'refused'} with ${res.statusCode}: ${res.body.slice(0, 200)}`;
        outcomes.push(outcome);
      }
    }

    const wronglyAllowed = outcomes.filter((o) => o.expected === 'deny' && o.got === 'allow');
    const wronglyDenied = outcomes.filter((o) => o.expected === 'allow' && o.got === 'deny');
    const otherProblems = outcomes.filter((o) => o.problem && o.expected === o.got);
    const figures = {
      cases: outcomes.length,
      actions: ACTIONS.length,
      actors: order.length,
      resources: new Set(ACTIONS.map((a) => a.resource)).size,
      expected_allowed: outcomes.filter((o) => o.expected === 'allow').length,
      expected_denied: outcomes.filter((o) => o.expected === 'deny').length,
      wrongly_allowed: wronglyAllowed.length,
      wrongly_denied: wronglyDenied.length,
      refusals_with_wrong_status_or_changed_rows: otherProblems.length,
      allowed_writes_seen_by_the_row_check: `${allowedWrites.filter((w) => w.seen).length}/${allowedWrites.length}`,
    };
    const byActor = Object.fromEntries(
      order.map((a) => [
        a,
        `${outcomes.filter((o) => o.actor === a && o.got === 'allow').length} allowed / ${outcomes.filter((o) => o.actor === a && o.got === 'deny').length} denied`,
      ]),
    );
    console.log(`authorization matrix: ${JSON.stringify(figures)}\n  by actor: ${JSON.stringify(byActor)}`);
    const problems = outcomes.filter((o) => o.problem).map((o) => `${o.actor} × ${o.action}: ${o.problem}`);
    expect(problems).toEqual([]);
    expect(figures.wrongly_allowed).toBe(0);
    expect(figures.wrongly_denied).toBe(0);
    expect(allowedWrites.filter((w) => !w.seen).map((w) => w.case)).toEqual([]);
    // Every actor was tried on every action, and each kind of change of rights was refused something.
    expect(figures.cases).toBe(ACTIONS.length * order.length);
    for (const a of ['removed_creator', 'demoted_admin', 'deleted_account'] as const)
      expect(outcomes.some((o) => o.actor === a && o.got === 'deny')).toBe(true);
  }, 300_000);

  it("a deleted account's token stops at once, on the cached polling path too", async () => {
    const u = await createUser(t, { organizationId: ids.orgA, organizationRole: 'member' });
    const headers = bearer(await login(t, u.email, u.password));
    const status = () => t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/active/status', headers });
    // The first poll puts the token in the short liveness cache (auth/session-tokens.ts).
    expect((await status()).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/account', headers })).statusCode).toBe(204);
    expect((await status()).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers })).statusCode).toBe(401);
  });
});

describe('a screening in progress follows membership too', () => {
  let release: () => void = () => undefined;
  const secondPatient = new Promise<void>((r) => (release = r));
  let calls = 0;
  // A scripted model: the second patient waits until the test lets it go, so the removal lands mid-run.
  const model: TextGenerator = {
    info: { engine: 'openai', model: 'scripted', usesAi: true },
    write: async function* () {
      yield '';
    },
    converse: async function* (conversation) {
      if (++calls === 2) await secondPatient;
      const ids = [...conversation.messages[0]!.content.matchAll(/- id (\S+)/g)].map((m) => m[1]);
      yield JSON.stringify({ criteria: ids.map((id) => ({ id, verdict: 'met', evidence: 'Type 2 diabetes mellitus since 2015.' })), explanation: 'Fits.' });
    },
  };
  let s: TestApp;
  const as = (headers: Record<string, string>, req: Req) => setupCall(s, headers, req);
  beforeAll(async () => {
    s = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '10000' }, { textGenerator: model });
  });
  afterAll(() => s.close());

  it("a member removed mid-screening stops it: no more of the organization's credits spent, no more records read", async () => {
    const [org] = await s.ctx.db.insert(organizations).values({ name: 'Screening clinic' }).returning();
    const adminUser = await createUser(s, { organizationId: org!.id, organizationRole: 'admin' });
    const memberUser = await createUser(s, { organizationId: org!.id, organizationRole: 'member' });
    const adminHeaders = bearer(await login(s, adminUser.email, adminUser.password));
    const memberHeaders = bearer(await login(s, memberUser.email, memberUser.password));
    await grantCredits(s.ctx.db, { organizationId: org!.id }, 10, 'screening grant');
    const base = `/v1/research_spaces/${(await as(memberHeaders, { method: 'POST', url: '/v1/research_spaces', payload: { research_space: { name: 'S' } } })).json().research_space.id}`;
    const trial = (await as(memberHeaders, { method: 'POST', url: `${base}/trials`, payload: { trial: { name: 'T' } } })).json().trial.id;
    await as(memberHeaders, {
      method: 'POST',
      url: `${base}/trials/${trial}/criteria`,
      payload: { criterion: { definition: 'Type 2 diabetes', type: 'critical_inclusion' } },
    });
    for (const label of ['p1', 'p2', 'p3']) {
      const upload = multipartPdf(label);
      await as(memberHeaders, { method: 'POST', url: `${base}/patients`, payload: upload.payload, headers: upload.headers });
    }
    const run = (await as(memberHeaders, { method: 'POST', url: `${base}/trials/${trial}/screenings` })).json().screening;
    for (let i = 0; i < 400 && calls < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(calls).toBe(2);
    await as(adminHeaders, { method: 'DELETE', url: `/v1/organizations/${org!.id}/members/${memberUser.id}` });
    release();
    let row;
    for (let i = 0; i < 400; i++) {
      [row] = await s.ctx.db.select().from(trialScreenings).where(eq(trialScreenings.id, run.id));
      if (row!.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(row).toMatchObject({ status: 'failed', error: 'stopped: the member who started it no longer has access to the space' });
    expect(calls).toBe(2);
    expect(await s.ctx.db.select().from(evaluationResults).where(eq(evaluationResults.screeningId, run.id))).toHaveLength(2);
    const spent = await s.ctx.db.select().from(creditLedger).where(eq(creditLedger.organizationId, org!.id));
    expect(spent.filter((l) => l.reason === 'screening')).toHaveLength(2);
    // And the removed member no longer reaches the space at all.
    expect((await s.app.inject({ method: 'GET', url: base, headers: memberHeaders })).statusCode).toBe(404);
  }, 60_000);
});
