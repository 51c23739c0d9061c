/**
 * A consultation's documents as FHIR R4, for the patient record. One `document` Bundle:
 * - first the Composition, typed by the main document's LOINC code, with one section per finished document (its
 *   text as XHTML narrative, its own LOINC code, and the DocumentReference that carries it);
 * - the author (Practitioner) and, for a clinician in an organization, the custodian (Organization);
 * - a DocumentReference per document with the PDF (the same page the browser exports) and the markdown, so a record
 *   system that files documents rather than Compositions keeps them whole; its master identifier is the version's
 *   id, so a second push of the same version is recognisable.
 * Only finished versions go out (the latest finished one of each document, saying which earlier one it replaces):
 * a version being written, or one that failed, is not a record. The patient and the encounter are named only when the consultation has them from the
 * record system; this product does not keep a patient identity of its own.
 */
import { createHash, randomUUID } from 'node:crypto';
import type {
  Bundle,
  BundleEntry,
  CodeableConcept,
  Coding,
  Composition,
  CompositionSection,
  Device,
  DocumentReference,
  Encounter,
  Organization,
  Patient,
  Practitioner,
  Provenance,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import { and, eq, inArray } from 'drizzle-orm';
import { documentToPdf } from '../../../../contract/document-pdf.js';
import { isLanguage, type Language } from '../../../../contract/constants.js';
import { nodeFonts } from '../../../../contract/pdf-fonts-node.js';
import { formatDocumentDate } from '../../ai/offline-composer.js';
import { idSystem } from '../../audit/fhir-audit-event.js';
import { findUserById } from '../../auth/users.js';
import { generatedDocuments, organizations } from '../../db/schema.js';
import type { AppContext } from '../../app-context.js';
import { DomainError, notFound } from '../../errors/domain-error.js';
import { findConsultationType, SELECTABLE_DOCUMENTS } from '../consultation_types/catalogue.js';
import { documentLanguage, type DocumentRow } from '../generated_documents/service.js';
import { markdownToNarrative } from './narrative.js';
import type { SessionRow } from './repository.js';

// The narrative is written in its own module; callers and tests have always found it here.
export { markdownToNarrative };

const LOINC = 'http://loinc.org';

/**
 * The LOINC document type of each kind, the closest where LOINC has no exact one: 34109-9 "Note" for texts that
 * are a note of no more specific type (a dictation, a certificate, a report, a clinician's own document).
 */
const LOINC_TYPE: Record<string, { code: string; display: string }> = {
  consultation_notes: { code: '11488-4', display: 'Consult note' },
  clinical_summary: { code: '34133-9', display: 'Summary of episode note' },
  referral_letter: { code: '57133-1', display: 'Referral note' },
  patient_summary: { code: '60591-5', display: 'Patient summary Document' },
};
const NOTE = { code: '34109-9', display: 'Note' };

/** BCP 47 tags of the interface languages: the product's Portuguese is Portugal's. */
const LANGUAGE_TAG: Record<Language, string> = { pt: 'pt-PT', en: 'en', de: 'de', es: 'es' };
const PAGE_LABEL: Record<Language, (page: number, total: number) => string> = {
  pt: (p, t) => `Página ${p} de ${t}`,
  en: (p, t) => `Page ${p} of ${t}`,
  de: (p, t) => `Seite ${p} von ${t}`,
  es: (p, t) => `Página ${p} de ${t}`,
};

/** Printed beside the title of a PDF whose version nobody signed yet, in the document's language. */
const DRAFT_LABEL: Record<Language, string> = {
  pt: 'Rascunho, não assinado',
  en: 'Draft, not signed',
  de: 'Entwurf, nicht unterschrieben',
  es: 'Borrador, sin firmar',
};

export function documentName(key: string, language: Language): string {
  return SELECTABLE_DOCUMENTS[key]?.name[language] ?? key.replace(/_/g, ' ');
}

export function documentType(key: string, language: Language): CodeableConcept {
  const loinc = LOINC_TYPE[key] ?? NOTE;
  return { coding: [{ system: LOINC, code: loinc.code, display: loinc.display }], text: documentName(key, language) };
}

/**
 * HL7's AI transparency labels (AI Transparency on FHIR, in `meta.security`): a text an AI engine drafted is
 * "AI asserted" until its clinician signs it, then "clinician asserted". A text no model touched carries neither.
 */
const OBSERVATION_VALUE = 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue';
const AI_ASSERTED: Coding = { system: OBSERVATION_VALUE, code: 'AIAST', display: 'Artificial Intelligence asserted' };
const CLINICIAN_ASSERTED: Coding = { system: OBSERVATION_VALUE, code: 'CLINAST', display: 'clinician asserted' };
const PARTICIPANT_TYPE = 'http://terminology.hl7.org/CodeSystem/provenance-participant-type';
const participant = (code: 'author' | 'attester') => ({
  coding: [{ system: PARTICIPANT_TYPE, code, display: code === 'author' ? 'Author' : 'Attester' }],
});
const AI_ENGINES = new Set(['openai', 'local']);

type Finished = { row: DocumentRow; previous: DocumentRow | undefined };

/**
 * The latest finished version of each document of the consultation (or of the one named), the type's documents
 * in their order first, each with the finished version it replaces.
 */
export async function finishedDocuments(ctx: Pick<AppContext, 'db'>, session: SessionRow, documentKey?: string): Promise<Finished[]> {
  const rows = await ctx.db
    .select()
    .from(generatedDocuments)
    .where(
      and(
        eq(generatedDocuments.sessionId, session.id),
        eq(generatedDocuments.status, 'done'),
        ...(documentKey ? [eq(generatedDocuments.documentKey, documentKey)] : []),
      ),
    );
  const byKey = new Map<string, DocumentRow[]>();
  for (const row of rows) if (row.text.trim()) byKey.set(row.documentKey, [...(byKey.get(row.documentKey) ?? []), row]);
  const order = findConsultationType(session.consultationTypeId)?.documents ?? [];
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return [...byKey.values()]
    .map((versions) => versions.sort((a, b) => b.version - a.version))
    .map(([row, previous]) => ({ row: row!, previous }))
    .sort((a, b) => rank(a.row.documentKey) - rank(b.row.documentKey) || a.row.documentKey.localeCompare(b.row.documentKey));
}

/** A UUID that depends only on `parts` (SHA-256, shaped as an RFC 9562 version 8 UUID): the same documents, the same id. */
function stableUuid(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\0')).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The identity a version has in the record: its id while a draft; once signed, another one, so that a record
 * system that filed the draft (If-None-Exist on this identifier) files the signed document too, marked as
 * replacing the draft.
 */
export function recordIdentity(doc: Pick<DocumentRow, 'id' | 'signedAt'>): string {
  return `urn:uuid:${doc.signedAt ? stableUuid('signed', doc.id) : doc.id}`;
}

const entry = (fullUrl: string, resource: Resource): BundleEntry => ({ fullUrl, resource });
const when = (d: Date) => d.toISOString();

export type FhirExport = { bundle: Bundle; documentReferences: DocumentReference[] };

/** The consultation's Bundle (of one document, when named); 409 `no_documents` while there is no finished one. */
export async function consultationBundle(ctx: Pick<AppContext, 'db'>, session: SessionRow, documentKey?: string): Promise<FhirExport> {
  const finished = await finishedDocuments(ctx, session, documentKey);
  const documents = finished.map((f) => f.row);
  if (documents.length === 0) throw new DomainError(409, 'no_documents', 'This consultation has no finished document to send to the record yet');
  const author = await findUserById(ctx.db, session.userId);
  if (!author) throw notFound('Consultation not found');
  const language: Language = isLanguage(author.language) ? author.language : 'pt';
  // The custodian is the organization the consultation was held for, not wherever its clinician works now.
  const [organization] = session.organizationId ? await ctx.db.select().from(organizations).where(eq(organizations.id, session.organizationId)) : [];

  // Which AI engines and models drafted each document, in any of its versions up to the one sent: a clinician's
  // edit of an AI draft is still, in part, the model's text.
  const drafts = await ctx.db
    .select({ key: generatedDocuments.documentKey, version: generatedDocuments.version, engine: generatedDocuments.engine, model: generatedDocuments.model })
    .from(generatedDocuments)
    .where(
      and(
        eq(generatedDocuments.sessionId, session.id),
        inArray(
          generatedDocuments.documentKey,
          documents.map((d) => d.documentKey),
        ),
      ),
    );
  const draftedBy = (doc: DocumentRow) => {
    const engines = new Map<string, { engine: string; model: string | null }>();
    for (const d of drafts) {
      if (d.key === doc.documentKey && d.version <= doc.version && AI_ENGINES.has(d.engine)) engines.set(`${d.engine}\0${d.model ?? ''}`, d);
    }
    return [...engines.values()];
  };
  const devices = new Map<string, Device>();
  const deviceUrl = (engine: string, model: string | null) => {
    const url = `urn:uuid:${stableUuid('device', engine, model ?? '')}`;
    if (!devices.has(url)) {
      devices.set(url, {
        resourceType: 'Device',
        deviceName: [
          { name: engine === 'local' ? 'Local AI engine' : 'OpenAI-compatible AI engine', type: 'user-friendly-name' },
          ...(model ? [{ name: model, type: 'model-name' as const }] : []),
        ],
        type: { text: 'AI text generator' },
      });
    }
    return url;
  };

  const practitionerUrl = `urn:uuid:${author.id}`;
  const practitioner: Practitioner = {
    resourceType: 'Practitioner',
    identifier: [{ system: idSystem('user'), value: author.id }],
    name: [{ text: author.name }],
  };
  const organizationUrl = organization ? `urn:uuid:${organization.id}` : undefined;
  const custodian: Reference<Organization> | undefined = organizationUrl
    ? { reference: organizationUrl, type: 'Organization', display: organization!.name }
    : undefined;
  const period = { start: when(session.createdAt), ...(session.finishedAt ? { end: when(session.finishedAt) } : {}) };

  // The record system's own patient and encounter, from its launch (ids on the server the documents go to).
  const subject: Reference<Patient> | undefined = session.fhirPatientId ? { reference: `Patient/${session.fhirPatientId}`, type: 'Patient' } : undefined;
  const encounter: Reference<Encounter> | undefined = session.fhirEncounterId
    ? { reference: `Encounter/${session.fhirEncounterId}`, type: 'Encounter' }
    : undefined;
  const references = await Promise.all(
    finished.map(async ({ row: doc, previous }): Promise<DocumentReference> => {
      // A patient summary may be in the patient's language: its file says so, and its PDF speaks it.
      const own = documentLanguage(session, doc.documentKey, language);
      const name = documentName(doc.documentKey, own);
      const written = doc.completedAt ?? doc.createdAt;
      const pdf = await documentToPdf(
        {
          title: doc.signedAt ? name : `${name} (${DRAFT_LABEL[own]})`,
          clinician: author.name,
          date: formatDocumentDate(written, own),
          markdown: doc.text,
          pageLabel: PAGE_LABEL[own],
        },
        nodeFonts,
      );
      const attachment = { language: LANGUAGE_TAG[own], creation: when(written) };
      const byAi = draftedBy(doc).length > 0;
      return {
        resourceType: 'DocumentReference',
        ...(byAi ? { meta: { security: [doc.signedAt ? CLINICIAN_ASSERTED : AI_ASSERTED] } } : {}),
        masterIdentifier: { system: 'urn:ietf:rfc:3986', value: recordIdentity(doc) },
        status: 'current',
        // A draft until its clinician signs it (POST …/sign).
        docStatus: doc.signedAt ? 'final' : 'preliminary',
        ...(doc.signedAt ? { authenticator: { reference: practitionerUrl, type: 'Practitioner', display: author.name } } : {}),
        type: documentType(doc.documentKey, language),
        date: when(written),
        author: [{ reference: practitionerUrl, type: 'Practitioner', display: author.name }],
        ...(custodian ? { custodian } : {}),
        description: name,
        content: [
          {
            attachment: {
              ...attachment,
              contentType: 'application/pdf',
              title: `${name}.pdf`,
              data: Buffer.from(pdf.output('arraybuffer')).toString('base64'),
            },
          },
          { attachment: { ...attachment, contentType: 'text/markdown', title: `${name}.md`, data: Buffer.from(doc.text, 'utf8').toString('base64') } },
        ],
        ...(subject ? { subject } : {}),
        context: {
          ...(encounter ? { encounter: [encounter] } : {}),
          period,
          related: [{ identifier: { system: idSystem('consultation'), value: session.id } }],
        },
        // A new version of a document sent before: the record system can retire the one it replaces.
        ...(previous || doc.signedAt
          ? {
              relatesTo: [...(previous ? [previous] : []), ...(doc.signedAt ? [{ id: doc.id, signedAt: null }] : [])].map((replaced) => ({
                code: 'replaces' as const,
                target: { type: 'DocumentReference', identifier: { system: 'urn:ietf:rfc:3986', value: recordIdentity(replaced) } },
              })),
            }
          : {}),
      };
    }),
  );

  const main = documents[0]!;
  const sections = documents.map(
    (doc): CompositionSection => ({
      title: documentName(doc.documentKey, language),
      code: documentType(doc.documentKey, language),
      text: { status: 'generated', div: markdownToNarrative(doc.text) },
      entry: [{ reference: `urn:uuid:${doc.id}`, type: 'DocumentReference' }],
    }),
  );
  const newest = documents.reduce((d, doc) => Math.max(d, (doc.completedAt ?? doc.createdAt).getTime()), 0);
  const allSigned = documents.every((d) => d.signedAt);
  const lastSigned = allSigned ? documents.reduce((d, doc) => Math.max(d, doc.signedAt!.getTime()), 0) : 0;
  const composition: Composition = {
    resourceType: 'Composition',
    ...(documents.some((d) => draftedBy(d).length > 0) ? { meta: { security: [allSigned ? CLINICIAN_ASSERTED : AI_ASSERTED] } } : {}),
    language: LANGUAGE_TAG[language],
    identifier: { system: idSystem('consultation'), value: session.id },
    // Final only when every document in it was signed; otherwise what it holds is a draft.
    status: allSigned ? 'final' : 'preliminary',
    ...(allSigned
      ? {
          attester: [
            {
              mode: 'legal' as const,
              time: new Date(lastSigned).toISOString(),
              party: { reference: practitionerUrl, type: 'Practitioner', display: author.name },
            },
          ],
        }
      : {}),
    type: documentType(main.documentKey, language),
    date: new Date(newest).toISOString(),
    author: [{ reference: practitionerUrl, type: 'Practitioner', display: author.name }],
    title: documentName(main.documentKey, language),
    ...(custodian ? { custodian } : {}),
    ...(subject ? { subject } : {}),
    ...(encounter ? { encounter } : {}),
    event: [{ period }],
    section: sections,
  };

  // Who drafted each document (the AI engine and model, or the clinician's own edit) and who signed it.
  const provenances = documents.map((doc): Provenance => {
    const engines = draftedBy(doc);
    return {
      resourceType: 'Provenance',
      target: [{ reference: `urn:uuid:${doc.id}`, type: 'DocumentReference' }],
      recorded: when(doc.signedAt ?? doc.completedAt ?? doc.createdAt),
      agent: [
        ...engines.map((e) => ({ type: participant('author'), who: { reference: deviceUrl(e.engine, e.model), type: 'Device' as const } })),
        ...(engines.length === 0 || doc.engine === 'manual'
          ? [{ type: participant('author'), who: { reference: practitionerUrl, type: 'Practitioner' as const, display: author.name } }]
          : []),
        ...(doc.signedAt ? [{ type: participant('attester'), who: { reference: practitionerUrl, type: 'Practitioner' as const, display: author.name } }] : []),
      ],
    };
  });

  const bundle: Bundle = {
    resourceType: 'Bundle',
    // The same versions make the same document: a second send is recognised by the record system.
    identifier: { system: 'urn:ietf:rfc:3986', value: `urn:uuid:${stableUuid(session.id, ...documents.map((d) => (d.signedAt ? `${d.id}:signed` : d.id)))}` },
    type: 'document',
    timestamp: new Date().toISOString(),
    entry: [
      entry(`urn:uuid:${randomUUID()}`, composition),
      entry(practitionerUrl, practitioner),
      ...(organization
        ? [
            entry(organizationUrl!, {
              resourceType: 'Organization',
              identifier: [{ system: idSystem('organization'), value: organization.id }],
              name: organization.name,
            } satisfies Organization),
          ]
        : []),
      ...references.map((ref, i) => entry(`urn:uuid:${documents[i]!.id}`, ref)),
      ...[...devices].map(([url, device]) => entry(url, device)),
      ...provenances.map((p, i) => entry(`urn:uuid:${stableUuid('provenance', documents[i]!.id, String(documents[i]!.signedAt?.getTime() ?? ''))}`, p)),
    ],
  };
  return { bundle, documentReferences: references };
}
