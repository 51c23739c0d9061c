/**
 * Reads the public development sets from a cache folder (EVAL_DATA_DIR): ACI-Bench (CC BY 4.0) and MTS-Dialog.
 * Only the train and validation files named below are ever opened; every other file is held out: nothing here
 * lists a folder, and a path with 'test' anywhere in it is refused before it is opened, so a held-out file cannot
 * be read by mistake or by a symlink or a renamed allow-list entry.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { csvObjects } from './csv.js';

export type SetName = 'aci-train' | 'aci-valid' | 'mts-train' | 'mts-valid';
export const SET_NAMES: readonly SetName[] = ['aci-train', 'aci-valid', 'mts-train', 'mts-valid'];

/** The only files the loader opens, relative to EVAL_DATA_DIR (the upstream repositories' own paths). */
export const ALLOWED_FILES = {
  'aci-train': 'aci-bench/data/challenge_data_json/train_full.json',
  'aci-valid': 'aci-bench/data/challenge_data_json/valid_full.json',
  'aci-valid-asr': 'aci-bench/data/src_experiment_data_json/valid_aci_asr.json',
  'mts-train': 'MTS-Dialog/Main-Dataset/MTS-Dialog-TrainingSet.csv',
  'mts-valid': 'MTS-Dialog/Main-Dataset/MTS-Dialog-ValidationSet.csv',
  // ACI-Bench's published BART predictions for the valid dialogues, one file per note section: real model
  // output nobody on the team wrote, for measuring the hallucination guard (npm run eval:guard).
  'aci-valid-bart-subjective': 'aci-bench/baselines/predictions/prediction_sections/ablation_bart-large-xsum-samsum_valid_subjective.json',
  'aci-valid-bart-objective_exam': 'aci-bench/baselines/predictions/prediction_sections/ablation_bart-large-xsum-samsum_valid_objective_exam.json',
  'aci-valid-bart-objective_results': 'aci-bench/baselines/predictions/prediction_sections/ablation_bart-large-xsum-samsum_valid_objective_results.json',
  'aci-valid-bart-assessment_and_plan': 'aci-bench/baselines/predictions/prediction_sections/ablation_bart-large-xsum-samsum_valid_assessment_and_plan.json',
} as const;
type AllowedKey = keyof typeof ALLOWED_FILES;

/** The note sections ACI-Bench's models were trained and published by, in the order of a note. */
export const BART_SECTIONS = ['subjective', 'objective_exam', 'objective_results', 'assessment_and_plan'] as const;

export const HOW_TO_GET_DATA = `The public development sets are read from EVAL_DATA_DIR, a folder holding clones (or copies) of two public GitHub repositories:
  aci-bench/    github.com/wyim/aci-bench (CC BY 4.0): ${ALLOWED_FILES['aci-train']}, ${ALLOWED_FILES['aci-valid']}, ${ALLOWED_FILES['aci-valid-asr']}
                (npm run eval:guard also reads the BART valid predictions: ${BART_SECTIONS.map((s) => ALLOWED_FILES[`aci-valid-bart-${s}`]).join(', ')})
  MTS-Dialog/   github.com/abachaa/MTS-Dialog: ${ALLOWED_FILES['mts-train']}, ${ALLOWED_FILES['mts-valid']}
e.g.  git clone --depth 1 https://github.com/wyim/aci-bench DIR/aci-bench && git clone --depth 1 https://github.com/abachaa/MTS-Dialog DIR/MTS-Dialog
then  EVAL_DATA_DIR=DIR npm run eval:notes
Only those train and validation files are read; the test sets stay held out and are refused.`;

/** Held-out test data must never be read: any path naming 'test' (any case) is refused. */
export function assertNotHeldOut(file: string): void {
  if (/test/i.test(file))
    throw new Error(`Refusing to read ${file}: paths containing "test" are held-out test data (and EVAL_DATA_DIR must not contain "test" either)`);
}

/** The text of one allow-listed file, or undefined when it is not in the cache. */
export function readAllowed(root: string, relative: string): string | undefined {
  assertNotHeldOut(relative);
  if (!(Object.values(ALLOWED_FILES) as string[]).includes(relative))
    throw new Error(`Refusing to read ${relative}: not one of the allowed train/validation files`);
  const file = path.resolve(root, relative);
  assertNotHeldOut(file);
  if (!existsSync(file)) return undefined;
  // A link that leads to a test file is refused too.
  assertNotHeldOut(realpathSync(file));
  return readFileSync(file, 'utf8');
}

export type Turn = { speaker: 'clinician' | 'patient'; text: string };
export type EvalDialogue = {
  set: SetName;
  id: string;
  turns: Turn[];
  /** The clinician's note (ACI-Bench) or one section of it (MTS-Dialog). */
  reference: string;
  /** MTS-Dialog: which section the reference is (GENHX, ROS, …). */
  referenceSection?: string;
};

/**
 * ACI-Bench lines: '[doctor] hi , brian .', '[patient] …', '[patient_guest] …'; a line without a tag continues the
 * turn before. A family member speaks on the patient's side of the room, so is labelled as the patient, as the
 * product's two-channel recording would.
 */
export function aciTurns(src: string): Turn[] {
  const turns: Turn[] = [];
  for (const line of src.split('\n')) {
    const m = /^\s*\[([a-z_]+)\]\s*(.*)$/i.exec(line);
    const text = (m ? m[2]! : line).trim();
    if (m) turns.push({ speaker: /doctor|clinician|nurse/i.test(m[1]!) ? 'clinician' : 'patient', text });
    else if (text && turns.length) turns[turns.length - 1]!.text += ` ${text}`;
  }
  return turns.filter((t) => t.text);
}

/** MTS-Dialog lines: 'Doctor: …', 'Patient: …', 'Guest_family: …', 'Doctor_2: …'; untagged lines continue a turn. */
export function mtsTurns(dialogue: string): Turn[] {
  const turns: Turn[] = [];
  for (const line of dialogue.split(/\r?\n/)) {
    const m = /^\s*(doctor|patient|guest_?[a-z]*|gest_?[a-z]*|sp)[\s_]?\d*\s*:\s*(.*)$/i.exec(line);
    const text = (m ? m[2]! : line).trim();
    if (m) turns.push({ speaker: /^doctor|clinic/i.test(m[1]!) ? 'clinician' : 'patient', text });
    else if (text && turns.length) turns[turns.length - 1]!.text += ` ${text}`;
  }
  return turns.filter((t) => t.text);
}

type AciFile = { data: { src: string; tgt: string; file: string }[] };

function aciDialogues(text: string, set: SetName): EvalDialogue[] {
  return (JSON.parse(text) as AciFile).data.map((d) => ({ set, id: d.file, turns: aciTurns(d.src), reference: d.tgt }));
}

function mtsDialogues(text: string, set: SetName): EvalDialogue[] {
  return csvObjects(text).map((r) => ({
    set,
    id: `${set}-${r.ID ?? ''}`,
    turns: mtsTurns(r.dialogue ?? ''),
    reference: (r.section_text ?? '').trim(),
    referenceSection: r.section_header ?? '',
  }));
}

export type LoadedSet = { dialogues: EvalDialogue[]; realAsr: EvalDialogue[]; missing: string[] };

/** One set's dialogues; missing files are reported, not fatal. aci-valid also brings its real speech-engine transcripts. */
export function loadSet(root: string, set: SetName): LoadedSet {
  assertNotHeldOut(path.resolve(root));
  const missing: string[] = [];
  const read = (key: AllowedKey) => {
    const text = readAllowed(root, ALLOWED_FILES[key]);
    if (text === undefined) missing.push(ALLOWED_FILES[key]);
    return text;
  };
  const main = read(set);
  const dialogues = main === undefined ? [] : set.startsWith('aci') ? aciDialogues(main, set) : mtsDialogues(main, set);
  let realAsr: EvalDialogue[] = [];
  if (set === 'aci-valid') {
    const asr = read('aci-valid-asr');
    if (asr !== undefined) realAsr = aciDialogues(asr, set);
  }
  return { dialogues, realAsr, missing };
}

/** Every k-th dialogue, k = ⌊total / n⌋, for a sample spread over the whole file and the same on every run. */
export function everyKth<T>(items: T[], n: number): T[] {
  if (n <= 0 || items.length <= n) return items;
  const k = Math.floor(items.length / n);
  return items.filter((_, i) => i % k === 0).slice(0, n);
}

type Prediction = { source: string; true: string; pred: string };
export type ModelNote = { id: string; note: string };
export type LoadedPredictions = { notes: ModelNote[]; missing: string[] };

/**
 * Letters and digits only, speaker tags left out: the prediction files re-tokenised the dialogue ('hi, brian.' for
 * 'hi , brian .'), and a dialogue's turns no longer carry its tags.
 */
const bare = (s: string) =>
  s
    .replace(/\[[a-z_]+\]/gi, ' ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
/** Enough of a dialogue's opening to tell it from the others of its set. */
const MIN_SOURCE = 200;

/**
 * ACI-Bench's BART predictions for the valid dialogues, each dialogue's four section predictions joined (a blank
 * line between) into the model's note. The files are matched to the dialogues by their `source`, never by
 * position: the model read only the opening of each dialogue (its input was cut to fit), so a source is a prefix
 * of the dialogue it was made from, and must be one of exactly one dialogue, the same in all four files.
 */
export function loadBartValid(root: string, dialogues: EvalDialogue[]): LoadedPredictions {
  assertNotHeldOut(path.resolve(root));
  const missing: string[] = [];
  const files: Prediction[][] = [];
  for (const section of BART_SECTIONS) {
    const relative = ALLOWED_FILES[`aci-valid-bart-${section}`];
    const text = readAllowed(root, relative);
    if (text === undefined) missing.push(relative);
    else files.push(JSON.parse(text) as Prediction[]);
  }
  if (missing.length) return { notes: [], missing };
  const first = files[0]!;
  if (files.some((f) => f.length !== first.length)) throw new Error('The BART prediction files differ in length');
  const sources = dialogues.map((d) => bare(d.turns.map((t) => t.text).join(' ')));
  const notes = first.map((p, i): ModelNote => {
    if (files.some((f) => f[i]!.source !== p.source)) throw new Error(`BART predictions: entry ${i} has a different source in one section file`);
    // The cut may fall inside a speaker tag ('…so that's good.\n[patient').
    const source = bare(p.source.replace(/\[[a-z_]*\s*$/i, ''));
    const matches = sources.flatMap((s, k) => (source.length >= MIN_SOURCE && s.startsWith(source) ? [k] : []));
    if (matches.length !== 1) throw new Error(`BART predictions: entry ${i} matches ${matches.length} dialogues (expected exactly one)`);
    return { id: dialogues[matches[0]!]!.id, note: files.map((f) => f[i]!.pred.trim()).join('\n\n') };
  });
  return { notes, missing };
}
