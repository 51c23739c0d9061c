/**
 * Facts of a reference note and whether a written note kept them and put them in the right section; values the
 * note got wrong, decimals it cut, medicines and diagnoses it named that nobody said. Independent of the
 * product's structurer: its own number reader, units, lexicons and section map.
 */
import { MEASUREMENT_LABELS } from './lexicon.js';
import type { NoteBody, NoteSection } from './note-body.js';
import { convertedFrom, quantitiesIn, sameQuantity, unitMismatch, type Quantity } from './quantities.js';
import { numbersAsDigits } from './spoken-numbers.js';
import { conceptsIn } from './terms.js';

/** Where a reference puts a fact: subjective, objective, assessment-and-plan, or (a procedure, an ED course) objective or plan. */
export type RefSection = 'S' | 'O' | 'AP' | 'OP';

/** The note sections that count as the right place for each reference section. */
export const PLACES: Record<RefSection, NoteSection[]> = { S: ['subjective'], O: ['objective'], AP: ['assessment', 'plan'], OP: ['objective', 'plan'] };

/** A reference heading (ACI-Bench) or section header (MTS-Dialog) as S/O/A/P; undefined for sub-headings to inherit. */
export function refSectionOf(heading: string): RefSection | undefined {
  const h = heading.toUpperCase().replace(/[^A-Z/ ]+/g, ' ');
  if (/ASSESSMENT|PLAN|IMPRESSION|INSTRUCTIONS|DIAGNOS|DISPOSITION/.test(h)) return 'AP';
  if (/PROCEDURE|EDCOURSE|ED COURSE|HOSPITAL COURSE/.test(h)) return 'OP';
  if (/EXAM|VITALS|RESULTS|FINDINGS|LABS|IMAGING|\bPE\b/.test(h)) return 'O';
  if (/COMPLAINT|\bCC\b|\bHPI\b|HISTORY|HX\b|REVIEW OF SYSTEMS|\bROS\b|MEDICATION|ALLERG|SOCIAL|FAMILY|SURGICAL|IMMUNIZATION|GYN|PRESENT ILLNESS/.test(h))
    return 'S';
  return undefined;
}

/** A heading line: capitals only, a few words, no digits ('PHYSICAL EXAMINATION', 'CC:'); 'BP: 120/80.' is content. */
const HEADING = /^[A-Z][A-Z &/,()'-]{1,60}:?$/;

export type RefPart = { section?: RefSection; text: string };

/** The reference cut into its sections; an MTS-Dialog reference is one section, named by its header. */
export function referenceParts(reference: string, mtsHeader?: string): RefPart[] {
  if (mtsHeader !== undefined) {
    const section = refSectionOf(mtsHeader);
    return [{ ...(section ? { section } : {}), text: reference }];
  }
  const parts: RefPart[] = [];
  let current: RefPart = { text: '' };
  for (const line of reference.split('\n')) {
    const trimmed = line.trim();
    const section = HEADING.test(trimmed) && trimmed.split(/\s+/).length <= 6 ? refSectionOf(trimmed) : undefined;
    if (section) {
      parts.push(current);
      current = { section, text: '' };
    } else current.text += `${line}\n`;
  }
  parts.push(current);
  return parts.filter((p) => p.text.trim());
}

export type FactKind = 'quantity' | 'medicine' | 'diagnosis';
export type Fact = { key: string; label: string; kind: FactKind; sections: Set<RefSection>; quantity?: Quantity; concept?: string };

/** Every number on a measurement line is a measurement, with or without its unit ('HR: 98.'). */
function measuredQuantities(text: string): Quantity[] {
  const out: Quantity[] = [];
  for (const line of text.split('\n')) {
    const onMeasurementLine = MEASUREMENT_LABELS.test(line);
    for (const q of quantitiesIn(line)) if (q.unit || q.value.includes('/') || q.value.includes('.') || onMeasurementLine) out.push(q);
  }
  return out;
}

/** The reference's facts, each once, with every section it appears in. */
export function referenceFacts(reference: string, mtsHeader?: string): Fact[] {
  const facts = new Map<string, Fact>();
  const add = (fact: Omit<Fact, 'sections'>, section: RefSection | undefined) => {
    const existing = facts.get(fact.key) ?? { ...fact, sections: new Set<RefSection>() };
    if (section) existing.sections.add(section);
    facts.set(fact.key, existing);
  };
  for (const part of referenceParts(reference, mtsHeader)) {
    for (const q of measuredQuantities(part.text))
      add({ key: `q:${q.value}|${q.unit ?? ''}`, label: `${q.value}${q.unit ? ` ${q.unit}` : ''}`, kind: 'quantity', quantity: q }, part.section);
    for (const c of conceptsIn(part.text)) add({ key: `c:${c.name}`, label: c.name, kind: c.kind, concept: c.name }, part.section);
  }
  return [...facts.values()];
}

/** 'in a week', 'for a month', 'a year ago': 1 week, 1 month, 1 year, as a note may write them in digits. */
const ONE_UNIT =
  /\b(?:in|for|within|about|after|past|last|over|another)\s+(?:a|an|one)\s+(second|minute|hour|day|week|month|year)\b|\b(?:a|an|one)\s+(second|minute|hour|day|week|month|year)\s+ago\b/gi;

/**
 * The quantities a text states: its numbers said or written, 'a week' where it is a length of time (1 week), and
 * 'once'/'twice' (1 and 2 times), which a note may write in digits.
 */
export function statedQuantities(text: string): Quantity[] {
  const out = quantitiesIn(text);
  for (const m of text.matchAll(ONE_UNIT)) out.push({ value: '1', unit: (m[1] ?? m[2])!.toLowerCase(), dimension: 'time', index: m.index, text: m[0] });
  for (const m of text.matchAll(/\b(once|twice)\b/gi))
    out.push({ value: m[1]!.toLowerCase() === 'once' ? '1' : '2', unit: 'times', dimension: 'count', index: m.index, text: m[0] });
  return out;
}

/**
 * Decimals whose 'point' the transcription wrote as a full stop ('seven . three', 'ninety eight . two', as
 * ACI-Bench has them) joined again: 7.3, 98.2. Only a single digit after the stop counts.
 */
export const joinStopDecimals = (text: string): string => numbersAsDigits(text).replace(/(?<![\d.])(\d+) ?\. (\d)(?![\d/,]|\.\d)/g, '$1.$2');

/** What a transcript states, read both as written and with its stop-for-point decimals joined. */
export function saidQuantities(transcript: string): Quantity[] {
  const joined = statedQuantities(joinStopDecimals(transcript)).filter((q) => q.value.includes('.'));
  return [...statedQuantities(transcript), ...joined];
}

/** `missed`: the countable facts the note does not state, for the omission list's recall. */
export type FactScore = { total: number; countable: number; kept: number; placed: number; missing: string[]; misplaced: string[]; missed: Fact[] };

/**
 * Facts kept and placed, among the reference facts the transcript states (a fact never said cannot be kept).
 * Quantities match by value and a unit that fits (see sameQuantity); medicines and diagnoses by any spelling.
 */
export function scoreFacts(facts: Fact[], body: NoteBody, transcript: string): FactScore {
  const said = saidQuantities(transcript);
  const saidConcepts = new Set(conceptsIn(transcript).map((c) => c.name));
  const noteQuantities = statedQuantities(body.text);
  const sectionQuantities = Object.fromEntries(Object.entries(body.sections).map(([s, text]) => [s, statedQuantities(text)])) as Partial<
    Record<NoteSection, Quantity[]>
  >;
  const noteConcepts = new Set(conceptsIn(body.text).map((c) => c.name));
  const sectionConcepts = Object.fromEntries(Object.entries(body.sections).map(([s, text]) => [s, new Set(conceptsIn(text).map((c) => c.name))])) as Partial<
    Record<NoteSection, Set<string>>
  >;
  const score: FactScore = { total: facts.length, countable: 0, kept: 0, placed: 0, missing: [], misplaced: [], missed: [] };
  for (const fact of facts) {
    const q = fact.quantity;
    // Said with a fitting unit, or without one for a value that stands alone (124/80, 98.6, 45): a '3 months' is
    // not said by any '3' of the consultation.
    const isSaid = q ? said.some((s) => sameQuantity(q, s)) : saidConcepts.has(fact.concept!);
    if (!isSaid) continue;
    score.countable++;
    const inText = (quantities: Quantity[] | undefined, concepts: Set<string> | undefined) =>
      q ? (quantities ?? []).some((n) => sameQuantity(q, n)) : (concepts?.has(fact.concept!) ?? false);
    if (!inText(noteQuantities, noteConcepts)) {
      score.missing.push(fact.label);
      score.missed.push(fact);
      continue;
    }
    score.kept++;
    const places = [...fact.sections].flatMap((s) => PLACES[s]);
    if (places.some((p) => inText(sectionQuantities[p], sectionConcepts[p]))) score.placed++;
    else score.misplaced.push(`${fact.label} (expected in ${[...new Set(places)].join('/') || 'a section the reference does not name'})`);
  }
  return score;
}

export type WrongValues = { checked: number; wrong: string[]; unitMismatches: string[] };

/**
 * Numbers the note writes with a unit, or on a measurement line, that neither the transcript nor the reference
 * states as that number with a fitting unit. A number said in one unit and written in another of the same kind
 * (154 pounds → 154 kg) is a unit mismatch, counted among the wrong values too. A right conversion added beside a
 * said value ('98 °F (36.7 °C)') is not wrong.
 */
export function wrongValues(body: NoteBody, transcript: string, reference: string): WrongValues {
  const sources = [...saidQuantities(transcript), ...saidQuantities(reference)];
  const out: WrongValues = { checked: 0, wrong: [], unitMismatches: [] };
  for (const line of body.lines) {
    const onMeasurementLine = MEASUREMENT_LABELS.test(line);
    const read = numbersAsDigits(line);
    const checked = quantitiesIn(line).filter((q) => q.unit || onMeasurementLine);
    const supported = (q: Quantity) => sources.some((s) => sameQuantity(q, s, true));
    // A conversion may start from a said value or from a supported value on the same line ('98.6 °F (37 °C)').
    const bases = [...sources, ...checked.filter(supported)];
    for (const q of checked) {
      out.checked++;
      if (supported(q) || bases.some((b) => convertedFrom(q, b))) continue;
      const mismatch = sources.find((s) => unitMismatch(q, s));
      if (mismatch) {
        out.unitMismatches.push(`${q.text.trim()} (said: ${mismatch.text.trim()})`);
        out.wrong.push(q.text.trim());
      } else out.wrong.push(`${q.text.trim()} in "${read.slice(Math.max(0, q.index - 50), q.index + q.text.length + 20).trim()}"`);
    }
  }
  return out;
}

export type DecimalsCut = { decimals: number; cut: string[] };

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Decimals the transcript states (2.5, 'two point five', 'seven . three') that the note has only in pieces: its
 * whole part followed by a stop ('2.'), a piece with the decimal's unit ('5 mg'), or the two parts apart ('98 6').
 */
export function decimalsCut(noteText: string, transcript: string): DecimalsCut {
  const said = new Map<string, Quantity>();
  for (const q of quantitiesIn(joinStopDecimals(transcript))) if (q.value.includes('.') && !q.value.includes('/') && !said.has(q.value)) said.set(q.value, q);
  const written = quantitiesIn(noteText);
  const cut: string[] = [];
  for (const [value, q] of said) {
    if (written.some((w) => w.value === value)) continue;
    const [whole, part] = value.split('.') as [string, string];
    const stopAfterWhole = new RegExp(`(?<![\\d.])${escapeRegExp(whole)}\\.(?!\\d)`).test(noteText);
    const pieceWithUnit =
      q.unit !== undefined && written.some((w) => (w.value === whole || w.value === part) && w.unit !== undefined && sameQuantity({ ...w, value }, q));
    const partsApart = new RegExp(`(?<![\\d.])${escapeRegExp(whole)}\\s*(?:point|,)?\\s+${escapeRegExp(part)}(?![\\d.])`, 'i').test(noteText);
    if (stopAfterWhole || pieceWithUnit || partsApart) cut.push(`${value}${q.unit ? ` ${q.unit}` : ''}`);
  }
  return { decimals: said.size, cut };
}

/** Medicines and diagnoses the note names that the transcript never names, in any spelling or inflection. */
export function invented(noteText: string, transcript: string): string[] {
  const said = new Set(conceptsIn(transcript).map((c) => c.name));
  return conceptsIn(noteText)
    .filter((c) => !said.has(c.name))
    .map((c) => `${c.name} (${c.kind})`);
}
