/**
 * `npm run eval:screening`: screens every patient of tests/fixtures/screening against their trial with the
 * configured engine (the same settings as the server; the offline screener when no model is configured), and
 * compares each verdict with the hand label:
 *  - criterion-level accuracy, over all pairs and over those the record states explicitly;
 *  - precision and recall of each verdict (met, not met, unclear);
 *  - patient-level eligibility accuracy (the product's pre-evaluation: not approved, fit, possible);
 *  - how many right Met / Not met verdicts quote the labelled evidence sentence;
 *  - two safety counts: a Met / Not met whose evidence is a file name, and a wrong Met / Not met whose evidence
 *    is a negated sentence (a negation read the wrong way round).
 *  - the goals' own figures: criteria decided, right when decided, verdicts opposite to the label (Met where the
 *    label says Not met or the reverse), eligible patients rejected, and the rank the product's result order
 *    (relevance.ts) gives each trial's labelled patients among every record of the set.
 * Besides the project's own sets, team-written trials are labelled on the public TREC Clinical Trials 2021/2022
 * patient descriptions (tests/fixtures/screening/trec-trials.ts), read from EVAL_DATA_DIR/trec-ct when present.
 * A measurement, not a test: it always exits 0. `-- --verbose` lists every verdict that differs from its label.
 */
import type { Language } from '../contract/constants.js';
import { createTextGenerator } from '../server/src/ai/engines.js';
import { loadConfig } from '../server/src/config.js';
import { documentsText } from '../server/src/jobs/screening.js';
import { classify, type CriterionAssessment, type Verdict } from '../server/src/modules/research_spaces/criteria.js';
import { byLikelihood, relevanceOf } from '../server/src/modules/research_spaces/relevance.js';
import { screenerEngine, screenPatient } from '../server/src/modules/research_spaces/screener.js';
import { normalise } from '../server/src/clinical/record-text.js';
import { EVAL_SET, type EvalPatient, type EvalTrial, type Label } from '../tests/fixtures/screening/eval-set.js';
import { HELD_OUT_SET } from '../tests/fixtures/screening/held-out.js';
import { HELD_OUT_2_SET } from '../tests/fixtures/screening/held-out-2.js';
import { HELD_OUT_3_SET } from '../tests/fixtures/screening/held-out-3.js';
import { TREC_TRIALS } from '../tests/fixtures/screening/trec-trials.js';
import { HOW_TO_GET_TREC, trecPatients, type TrecYear } from './eval/trec-patients.js';

/** A record a trial's patients are ranked among. */
type PoolRecord = { id: string; language: Language; documents: string };
/**
 * `pool`: every record of the set, which the trial's results are ranked over; `wanted`: the patients the label
 * says a coordinator should see first (those not ruled out).
 */
type EvalSet = { trial: EvalTrial; patients: EvalPatient[]; pool?: PoolRecord[]; wanted?: string[] }[];

const VERDICTS: Verdict[] = ['met', 'not_met', 'unclear'];
/** Negation in the four languages, on normalised text; wider than any screener's own list on purpose. */
const NEGATED =
  /(?<![a-z])(?:no|not|non|never|denies|denied|without|negative|ruled out|nao|sem|nega|nunca|negativo|negativa|kein\w*|nicht\w*|ohne|verneint|nein|negativ|sin|niega|descarta\w*)(?![a-z])|(?<![a-z])ex-?(?:fuma|raucher|smoker)/;

const verbose = process.argv.includes('--verbose');
const generator = await createTextGenerator(loadConfig({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? '.tmp/eval' }));
const engine = screenerEngine(generator);

type Pair = { trial: string; patient: EvalPatient; criterion: string; label: Label; got: CriterionAssessment };
const pct = (n: number, d: number) => (d ? `${((n / d) * 100).toFixed(1)} %` : '–');
const ratio = (n: number, d: number) => `${pct(n, d)} (${n}/${d})`;

/** Screens one set's patients and prints its figures. */
async function report(title: string, set: EvalSet): Promise<void> {
  const pairs: Pair[] = [];
  let patientsRight = 0;
  let patientsTotal = 0;
  let failures = 0;
  const perTrial: string[] = [];
  const rejected: string[] = [];
  const ranks: { trial: string; patient: string; rank: number; of: number }[] = [];

  for (const { trial, patients } of set) {
    let right = 0;
    let eligible = 0;
    for (const patient of patients) {
      const documents = documentsText(patient.files);
      let assessments: CriterionAssessment[];
      try {
        assessments = (await screenPatient(generator, trial.criteria, documents, patient.language as Language)).assessments;
      } catch (err) {
        // A patient the model could not screen counts as every criterion unclear, as the product would leave it.
        failures++;
        console.error(`  ${patient.id}: ${err instanceof Error ? err.message : 'screening failed'}`);
        assessments = trial.criteria.map((c) => ({ criterion_id: c.id, verdict: 'unclear', evidence: '' }));
      }
      for (const c of trial.criteria) {
        const got = assessments.find((a) => a.criterion_id === c.id) ?? { criterion_id: c.id, verdict: 'unclear', evidence: '' };
        const label = patient.labels[c.id]!;
        pairs.push({ trial: trial.id, patient, criterion: c.id, label, got });
        if (got.verdict === label.verdict) right++;
      }
      const preEvaluation = classify(trial.criteria, assessments).preEvaluation;
      if (preEvaluation === 'not_approved' && patient.eligibility !== 'not_approved') rejected.push(`${patient.id} (${trial.id})`);
      if (preEvaluation === patient.eligibility) eligible++;
      else if (verbose) console.log(`  ${patient.id} eligibility: ${preEvaluation}, expected ${patient.eligibility}`);
    }
    const criteria = patients.length * trial.criteria.length;
    perTrial.push(
      `  ${trial.id.padEnd(10)} ${String(patients.length).padStart(8)}   ${ratio(right, criteria).padStart(18)}   ${ratio(eligible, patients.length).padStart(16)}`,
    );
    patientsRight += eligible;
    patientsTotal += patients.length;
  }

  // Every record of the set screened against each trial and put in the results list's order.
  for (const { trial, patients, pool, wanted } of set) {
    const records = pool ?? set.flatMap((s) => s.patients.map((p) => ({ id: p.id, language: p.language, documents: documentsText(p.files) })));
    const labelled = wanted ?? patients.filter((p) => p.eligibility !== 'not_approved').map((p) => p.id);
    if (labelled.length === 0) continue;
    const listed: { id: string; preEvaluation: string; relevance: number }[] = [];
    for (const r of records) {
      let assessments: CriterionAssessment[];
      try {
        assessments = (await screenPatient(generator, trial.criteria, r.documents, r.language)).assessments;
      } catch {
        assessments = [];
      }
      listed.push({
        id: r.id,
        preEvaluation: classify(trial.criteria, assessments).preEvaluation,
        relevance: relevanceOf(trial, trial.criteria, assessments, r.documents).score,
      });
    }
    for (const id of labelled) {
      const mine = listed.find((l) => l.id === id);
      if (!mine) continue;
      // Ties share their places: the rank is the middle of the places they take.
      const before = listed.filter((l) => byLikelihood(l, mine) < 0).length;
      const tied = listed.filter((l) => byLikelihood(l, mine) === 0).length;
      ranks.push({ trial: trial.id, patient: id, rank: before + (tied + 1) / 2, of: listed.length });
    }
  }

  const correct = (p: Pair) => p.got.verdict === p.label.verdict;
  const explicit = pairs.filter((p) => p.label.explicit);
  const settled = (p: Pair) => p.got.verdict !== 'unclear';
  const fromFileName = pairs.filter((p) => {
    if (!settled(p)) return false;
    const evidence = normalise(p.got.evidence);
    return evidence.includes('===') || p.patient.files.some((f) => evidence.includes(normalise(f.fileName)));
  });
  const fromNegation = pairs.filter((p) => settled(p) && !correct(p) && NEGATED.test(normalise(p.got.evidence)));
  // A right verdict quoting the labelled sentence (or part of it, or a passage holding it): the coordinator can check it.
  // A word hyphenated at a line's end is quoted joined again.
  const squash = (s: string) =>
    normalise(s)
      .replace(/(\p{L})-\s*\n\s*(\p{Ll})/gu, '$1$2')
      .replace(/\s+/g, ' ')
      .trim();
  const quoted = pairs.filter((p) => settled(p) && correct(p) && p.label.evidence);
  const quotedRight = quoted.filter((p) => {
    const [got, want] = [squash(p.got.evidence), squash(p.label.evidence!)];
    return got.length > 0 && (got.includes(want) || want.includes(got));
  });

  console.log(`\n${title}: trial pre-screening evaluation with ${engine}${generator.info.model && engine !== 'offline' ? ` (${generator.info.model})` : ''}`);
  console.log(
    `  ${set.length} trials, ${patientsTotal} patients, ${pairs.length} patient–criterion pairs (${explicit.length} stated explicitly)${failures ? `, ${failures} patients not screened` : ''}\n`,
  );
  console.log('  trial      patients   criteria accuracy   eligibility');
  for (const line of perTrial) console.log(line);
  console.log('');
  const row = (name: string, value: string | number) => console.log(`  ${`${name}:`.padEnd(52)}${value}`);
  const decided = pairs.filter(settled);
  const opposite = decided.filter((p) => p.label.verdict !== 'unclear' && p.got.verdict !== p.label.verdict);
  const sortedRanks = ranks.map((r) => r.rank).sort((a, b) => a - b);
  const median = sortedRanks.length
    ? (sortedRanks[Math.floor((sortedRanks.length - 1) / 2)]! + sortedRanks[Math.ceil((sortedRanks.length - 1) / 2)]!) / 2
    : NaN;
  row('criteria decided (Met or Not met)', ratio(decided.length, pairs.length));
  row('right when decided', ratio(decided.filter(correct).length, decided.length));
  row('verdicts opposite to the label', opposite.length);
  for (const p of opposite)
    console.log(`    ${p.patient.id} ${p.criterion}: ${p.got.verdict} (label ${p.label.verdict}) from ${JSON.stringify(p.got.evidence)}`);
  row('eligible patients rejected (not approved)', rejected.length);
  for (const r of rejected) console.log(`    ${r}`);
  if (ranks.length) {
    row(
      `labelled patients' median rank`,
      `${median} of ${Math.round(ranks.reduce((n, r) => n + r.of, 0) / ranks.length)} records (${ranks.filter((r) => r.rank <= 3).length}/${ranks.length} in the first 3)`,
    );
    if (verbose) for (const r of ranks) console.log(`    ${r.trial} ${r.patient}: ${r.rank} of ${r.of}`);
  }
  row('criterion-level accuracy, all pairs', ratio(pairs.filter(correct).length, pairs.length));
  row('criterion-level accuracy, explicit pairs', ratio(explicit.filter(correct).length, explicit.length));
  row('patient-level eligibility accuracy', ratio(patientsRight, patientsTotal));
  row('right Met / Not met quoting the labelled evidence', ratio(quotedRight.length, quoted.length));
  console.log('\n  verdict    precision           recall');
  for (const v of VERDICTS) {
    const said = pairs.filter((p) => p.got.verdict === v);
    const truth = pairs.filter((p) => p.label.verdict === v);
    console.log(`  ${v.padEnd(9)}  ${ratio(said.filter(correct).length, said.length).padEnd(18)}  ${ratio(truth.filter(correct).length, truth.length)}`);
  }
  console.log('\n  label →    ' + VERDICTS.map((v) => `got ${v}`.padStart(13)).join(''));
  for (const l of VERDICTS) {
    console.log(
      `  ${l.padEnd(9)}  ${VERDICTS.map((v) => String(pairs.filter((p) => p.label.verdict === l && p.got.verdict === v).length).padStart(13)).join('')}`,
    );
  }
  console.log('\n  safety');
  row('Met / Not met from a file name', fromFileName.length);
  row('wrong Met / Not met from a negated sentence', fromNegation.length);
  for (const p of [...fromFileName, ...fromNegation])
    console.log(`    ${p.patient.id} ${p.criterion}: ${p.got.verdict} (label ${p.label.verdict}) from "${p.got.evidence}"`);

  if (verbose) {
    console.log('\n  verdicts that differ from their label');
    for (const p of pairs.filter((x) => !correct(x))) {
      console.log(
        `    ${p.patient.id} ${p.criterion.padEnd(9)} got ${p.got.verdict.padEnd(8)} label ${p.label.verdict.padEnd(8)}${p.label.explicit ? ' explicit' : '         '}  ${JSON.stringify(p.got.evidence)}`,
      );
    }
    console.log('\n  right verdicts quoting another sentence than the labelled one');
    for (const p of quoted.filter((x) => !quotedRight.includes(x)))
      console.log(`    ${p.patient.id} ${p.criterion.padEnd(9)} quoted ${JSON.stringify(p.got.evidence)}, labelled ${JSON.stringify(p.label.evidence)}`);
  }
}

await report('Development set (the rules were written against it)', EVAL_SET);
await report('Second set (written without reading the rules; the rules were then extended against it)', HELD_OUT_SET);
await report('Third set (written without reading the rules; the rules were then extended against it)', HELD_OUT_2_SET);
await report('Held-out set (written last, blind to the rules and the other sets; never tuned against)', HELD_OUT_3_SET);

const dataDir = process.env.EVAL_DATA_DIR;
for (const year of ['2021', '2022'] as TrecYear[]) {
  const descriptions = dataDir ? trecPatients(dataDir, year) : undefined;
  if (!descriptions) {
    console.log(`\nTREC CT ${year}: not in EVAL_DATA_DIR, skipped.\n${HOW_TO_GET_TREC}`);
    continue;
  }
  const pool: PoolRecord[] = [...descriptions].map(([id, text]) => ({ id, language: 'en', documents: text }));
  const set: EvalSet = TREC_TRIALS.filter((t) => t.year === year).map((trial) => ({
    trial,
    pool,
    wanted: trial.eligible,
    patients: [...trial.eligible, ...trial.excluded]
      .filter((id) => descriptions.has(id))
      .map((id): EvalPatient => {
        const labels = trial.labels[id]!;
        const assessments = trial.criteria.map((c) => ({ criterion_id: c.id, verdict: labels[c.id]!.verdict, evidence: '' }));
        return {
          id,
          language: 'en',
          files: [{ fileName: `${id}.txt`, text: descriptions.get(id)! }],
          labels,
          eligibility: classify(trial.criteria, assessments).preEvaluation,
        };
      }),
  }));
  await report(`TREC CT ${year} patient descriptions (public; trials and labels written by the team, blind to the rules)`, set);
}
process.exitCode = 0;
