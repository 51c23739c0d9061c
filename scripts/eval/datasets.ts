/**
 * Reads the public development sets from a cache folder (EVAL_DATA_DIR): ACI-Bench (CC BY 4.0) and MTS-Dialog.
 * Only the train and validation files named below are ever opened. The test sets (and the GPT-4/ChatGPT
 * prediction files, made for the test sets only) are held out: nothing here lists a folder, and a path with
 * 'test' anywhere in it is refused before it is opened, so a held-out file cannot be read by mistake or by a
 * symlink or a renamed allow-list entry.
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
} as const;
type AllowedKey = keyof typeof ALLOWED_FILES;

export const HOW_TO_GET_DATA = `The public development sets are read from EVAL_DATA_DIR, a folder holding clones (or copies) of two public GitHub repositories:
  aci-bench/    github.com/wyim/aci-bench (CC BY 4.0): ${ALLOWED_FILES['aci-train']}, ${ALLOWED_FILES['aci-valid']}, ${ALLOWED_FILES['aci-valid-asr']}
  MTS-Dialog/   github.com/abachaa/MTS-Dialog: ${ALLOWED_FILES['mts-train']}, ${ALLOWED_FILES['mts-valid']}
e.g.  git clone --depth 1 https://github.com/wyim/aci-bench DIR/aci-bench && git clone --depth 1 https://github.com/abachaa/MTS-Dialog DIR/MTS-Dialog
then  EVAL_DATA_DIR=DIR npm run eval:notes
Only those train and validation files are read; the test sets stay held out and are refused.`;

/** Held-out test data must never be read: any path naming 'test' (any case) is refused. */
export function assertNotHeldOut(file: string): void {
  if (/test/i.test(file)) throw new Error(`Refusing to read ${file}: paths containing "test" are held-out test data (and EVAL_DATA_DIR must not contain "test" either)`);
}

/** The text of one allow-listed file, or undefined when it is not in the cache. */
export function readAllowed(root: string, relative: string): string | undefined {
  assertNotHeldOut(relative);
  if (!(Object.values(ALLOWED_FILES) as string[]).includes(relative)) throw new Error(`Refusing to read ${relative}: not one of the allowed train/validation files`);
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
  return csvObjects(text).map((r) => ({ set, id: `${set}-${r.ID ?? ''}`, turns: mtsTurns(r.dialogue ?? ''), reference: (r.section_text ?? '').trim(), referenceSection: r.section_header ?? '' }));
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
