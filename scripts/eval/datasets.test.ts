import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { aciTurns, ALLOWED_FILES, assertNotHeldOut, BART_SECTIONS, everyKth, loadBartValid, loadSet, mtsTurns, readAllowed } from './datasets.js';

// The fixtures are made here; no held-out file is ever opened by these tests.
function cache(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'eval-data-'));
  mkdirSync(path.join(root, 'aci-bench/data/challenge_data_json'), { recursive: true });
  mkdirSync(path.join(root, 'aci-bench/data/src_experiment_data_json'), { recursive: true });
  mkdirSync(path.join(root, 'MTS-Dialog/Main-Dataset'), { recursive: true });
  const aci = {
    data: [
      {
        file: 'D1',
        src: "[doctor] hi , brian . how are you ?\n[patient] i do n't know .\nstill me .\n[patient_guest] he 's fine .",
        tgt: 'CHIEF COMPLAINT\n\nFatigue.',
      },
    ],
  };
  writeFileSync(path.join(root, ALLOWED_FILES['aci-valid']), JSON.stringify(aci));
  writeFileSync(path.join(root, ALLOWED_FILES['aci-valid-asr']), JSON.stringify(aci));
  writeFileSync(
    path.join(root, ALLOWED_FILES['mts-valid']),
    'ID,section_header,section_text,dialogue\n0,ROS,"No fever, no chills.","Doctor: Any fever?\nPatient: No, ""none"".\n Guest_family_1: He had chills."\n',
  );
  return root;
}

describe('held-out test sets are never read', () => {
  it('refuses any path containing "test", in any case', () => {
    for (const p of [
      'aci-bench/data/challenge_data_json/some_test.json',
      'aci-bench/data/challenge_data_json/other_Test_full.json',
      'MTS-Dialog/Main-Dataset/Some-TestSet.csv',
      '/data/TEST/anything.json',
    ])
      expect(() => assertNotHeldOut(p), p).toThrow(/held-out/);
  });
  it('reads only the allow-listed files, and refuses test paths before checking the list', () => {
    const root = cache();
    expect(() => readAllowed(root, 'MTS-Dialog/Main-Dataset/Another-TestSet.csv')).toThrow(/held-out/);
    expect(() => readAllowed(root, 'aci-bench/data/src_experiment_data_json/valid_virtscribe_asr.json')).toThrow(/not one of the allowed/);
    expect(readAllowed(root, ALLOWED_FILES['aci-valid'])).toContain('brian');
  });
  it('refuses a cache folder or a link whose path names a test set', () => {
    const root = cache();
    const testDir = mkdtempSync(path.join(tmpdir(), 'a-test-dir-'));
    expect(() => loadSet(testDir, 'aci-valid')).toThrow(/held-out/);
    const target = path.join(testDir, 'some_test.json');
    writeFileSync(target, '{"data":[]}');
    symlinkSync(target, path.join(root, ALLOWED_FILES['aci-train']));
    expect(() => loadSet(root, 'aci-train')).toThrow(/held-out/);
  });
});

describe('loading the sets', () => {
  it('reads ACI-Bench turns: tags, continuation lines, a guest on the patient side', () => {
    expect(aciTurns('[doctor] hi .\n[patient] yes .\nmore .\n[patient_guest] ok .')).toEqual([
      { speaker: 'clinician', text: 'hi .' },
      { speaker: 'patient', text: 'yes . more .' },
      { speaker: 'patient', text: 'ok .' },
    ]);
  });
  it('reads MTS-Dialog turns: Doctor, Patient, guests, numbered doctors', () => {
    expect(mtsTurns('Doctor: Hi.\n Patient: Hello.\nGuest_family_1: I am his wife.\nDoctor_2: Noted.\nGuest_clinician: BP is fine.')).toEqual([
      { speaker: 'clinician', text: 'Hi.' },
      { speaker: 'patient', text: 'Hello.' },
      { speaker: 'patient', text: 'I am his wife.' },
      { speaker: 'clinician', text: 'Noted.' },
      { speaker: 'clinician', text: 'BP is fine.' },
    ]);
  });
  it('loads a set and its real speech-engine form, and reports missing files without failing', () => {
    const root = cache();
    const valid = loadSet(root, 'aci-valid');
    expect(valid.dialogues).toHaveLength(1);
    expect(valid.realAsr).toHaveLength(1);
    expect(valid.dialogues[0]!.reference).toContain('CHIEF COMPLAINT');
    const mts = loadSet(root, 'mts-valid');
    expect(mts.dialogues[0]).toMatchObject({ id: 'mts-valid-0', referenceSection: 'ROS', reference: 'No fever, no chills.' });
    expect(mts.dialogues[0]!.turns[1]!.text).toBe('No, "none".');
    expect(loadSet(root, 'mts-train')).toEqual({ dialogues: [], realAsr: [], missing: [ALLOWED_FILES['mts-train']] });
  });
  it('samples every k-th item, the same every run', () => {
    const items = Array.from({ length: 1201 }, (_, i) => i);
    const sample = everyKth(items, 100);
    expect(sample).toHaveLength(100);
    expect(sample.slice(0, 3)).toEqual([0, 12, 24]);
    expect(everyKth([1, 2], 100)).toEqual([1, 2]);
  });
});

describe("ACI-Bench's BART valid predictions", () => {
  const talk = (name: string) =>
    Array.from({ length: 8 }, (_, i) => `[doctor] hi , ${name} . how are you on day ${i} ?\n[patient] i do n't know , ${name} is tired .`).join('\n');
  function withPredictions(entries: (source: string) => { source: string; true: string; pred: string }) {
    const root = cache();
    const dialogues = [
      { file: 'D1', src: talk('brian'), tgt: 'note one' },
      { file: 'D2', src: talk('megan'), tgt: 'note two' },
    ];
    writeFileSync(path.join(root, ALLOWED_FILES['aci-valid']), JSON.stringify({ data: dialogues }));
    mkdirSync(path.join(root, 'aci-bench/baselines/predictions/prediction_sections'), { recursive: true });
    // Reversed and re-tokenised as the published files are, each source cut inside a speaker tag.
    const sources = dialogues.reverse().map(
      (d) =>
        `${d.src
          .replace(/ ([,.?])/g, '$1')
          .replace(/ n't/g, "n't")
          .split('\n')
          .slice(0, 10)
          .join('\n')}\n[pat`,
    );
    for (const section of BART_SECTIONS) {
      writeFileSync(
        path.join(root, ALLOWED_FILES[`aci-valid-bart-${section}`]),
        JSON.stringify(sources.map((s) => ({ ...entries(s), pred: `${section.toUpperCase()} of ${s.includes('megan') ? 'megan' : 'brian'}\n\n` }))),
      );
    }
    return root;
  }
  it('joins the four sections of each dialogue, matched by source, not by position', () => {
    const root = withPredictions((source) => ({ source, true: '', pred: '' }));
    const { dialogues } = loadSet(root, 'aci-valid');
    const { notes, missing } = loadBartValid(root, dialogues);
    expect(missing).toEqual([]);
    expect(notes.map((n) => n.id)).toEqual(['D2', 'D1']);
    expect(notes[1]!.note).toBe('SUBJECTIVE of brian\n\nOBJECTIVE_EXAM of brian\n\nOBJECTIVE_RESULTS of brian\n\nASSESSMENT_AND_PLAN of brian');
  });
  it('refuses a source that matches no dialogue, and reports missing files', () => {
    const root = withPredictions((source) => ({ source: source.replace('megan', 'julia'), true: '', pred: '' }));
    expect(() => loadBartValid(root, loadSet(root, 'aci-valid').dialogues)).toThrow(/matches 0 dialogues/);
    expect(loadBartValid(cache(), []).missing).toHaveLength(4);
  });
  it('never opens a prediction file of a test set', () => {
    expect(() => readAllowed(cache(), 'aci-bench/baselines/predictions/prediction_sections/some_test_subjective.json')).toThrow(/held-out/);
  });
});
