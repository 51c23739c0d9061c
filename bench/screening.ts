/**
 * Research screening without AI: reading a patient's PDF once at upload, and the offline screener settling a
 * trial's criteria over a space of patients. Each against a reference measured in the same run: pdf.js opening
 * the same file without reading its text, and one pass over the same records that only splits and normalises
 * them (the least any screener must do), so the ratio is what the matching itself costs.
 */
import { performance } from 'node:perf_hooks';
import { jsPDF } from 'jspdf';
import type { Criterion } from '../server/src/modules/research_spaces/criteria.js';
import { screenOffline } from '../server/src/modules/research_spaces/offline-screener.js';
import { relevanceOf, unclearPassages } from '../server/src/modules/research_spaces/relevance.js';
import { readPdfText } from '../server/src/modules/research_spaces/pdf-text.js';
import { normalise, sentences } from '../server/src/clinical/record-text.js';

const line = (i: number) =>
  [
    `Consulta ${i}: doente com diabetes mellitus tipo 2 desde 2015, hipertensão arterial controlada.`,
    `HbA1c ${(7 + (i % 30) / 10).toFixed(1)} %. eGFR ${40 + (i % 50)} mL/min. LDL 2.${i % 9} mmol/L.`,
    'Nega tabagismo. Sem alergias medicamentosas conhecidas. Medicação: metformina 1000 mg bid.',
  ].join('\n');

function recordPdf(pages: number): Buffer {
  const doc = new jsPDF();
  for (let p = 0; p < pages; p++) {
    if (p > 0) doc.addPage();
    doc.text(['Data de nascimento: 14/03/1968', ...Array.from({ length: 12 }, (_, i) => line(p * 12 + i))].join('\n'), 10, 10, { maxWidth: 190 });
  }
  return Buffer.from(doc.output('arraybuffer'));
}

async function median(runs: number, fn: () => Promise<unknown> | unknown) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}

const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
for (const pages of [1, 10, 50]) {
  const data = recordPdf(pages);
  const open = async () => {
    const task = pdfjs.getDocument({ data: new Uint8Array(data), verbosity: 0 });
    await (await task.promise).getPage(1);
    await task.destroy();
  };
  await readPdfText(data); // warm-up
  const read = await median(9, () => readPdfText(data));
  const reference = await median(9, open);
  console.log(
    `PDF text, ${pages} page(s), ${(data.length / 1024).toFixed(0)} KB: median ${read.toFixed(1)} ms (${(read / pages).toFixed(1)} ms a page); ` +
      `opening only ${reference.toFixed(1)} ms, ratio ${(read / reference).toFixed(1)}×`,
  );
}

const criteria: Criterion[] = [
  'Idade entre 18 e 75 anos',
  'Diabetes mellitus tipo 2',
  'HbA1c entre 7% e 10%',
  'eGFR < 30 mL/min',
  'Tabagismo ativo',
  'Insuficiência cardíaca classe III ou IV',
  'Gravidez ou amamentação',
  'LDL > 4 mmol/L',
  'Hipertensão arterial não controlada',
  'Alergia à metformina',
].flatMap((definition, i) => [
  { id: `c${i}`, definition, type: i % 2 ? 'critical_exclusion' : 'critical_inclusion', needsReview: false } as Criterion,
  { id: `d${i}`, definition: `${definition} (confirmado)`, type: 'non_critical_inclusion', needsReview: false } as Criterion,
]);
const space = Array.from({ length: 100 }, (_, p) => ['Data de nascimento: 14/03/1968', ...Array.from({ length: 30 }, (_, i) => line(p + i))].join('\n'));
const today = new Date('2026-11-22');
screenOffline(criteria, space[0]!, today); // warm-up
const screen = await median(5, () => space.forEach((doc) => screenOffline(criteria, doc, today)));
const reference = await median(5, () => space.forEach((doc) => sentences(doc).map(normalise)));
console.log(
  `Offline screening, 100 patients × ${criteria.length} criteria (${(space[0]!.length / 1024).toFixed(1)} KB of text each): median ${screen.toFixed(0)} ms, ` +
    `${(screen / 100).toFixed(1)} ms a patient; reading only ${reference.toFixed(1)} ms, ratio ${(screen / reference).toFixed(0)}×`,
);

// What each result keeps besides its verdicts: the closest sentences under every criterion (all unclear, the most
// work) and the relevance score, against the same reading-only reference.
const allUnclear = criteria.map((c) => ({ criterion_id: c.id, verdict: 'unclear' as const, evidence: '' }));
const trial = { name: 'DIA-3', description: 'Doentes com diabetes mellitus tipo 2 e HbA1c acima do alvo.' };
const kept = await median(5, () => space.forEach((doc) => (unclearPassages(criteria, allUnclear, doc), relevanceOf(trial, criteria, allUnclear, doc))));
console.log(
  `Closest sentences and relevance, 100 patients × ${criteria.length} unclear criteria: median ${kept.toFixed(0)} ms, ${(kept / 100).toFixed(1)} ms a patient; ` +
    `reading only ${reference.toFixed(1)} ms, ratio ${(kept / reference).toFixed(0)}×`,
);

// Scanned records: OCR a page at a time, against reading the same pages' text layer.
const { ocrAvailable, ocrPdf } = await import('../server/src/modules/research_spaces/pdf-ocr.js');
if (!ocrAvailable()) {
  console.log('OCR: poppler-utils and tesseract-ocr are not installed (npm start installs them); not measured.');
} else {
  const { scannedRecordPdf, textRecordPdf } = await import('../tests/fixtures/patient-records.js');
  const { writeFileSync, mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const pathMod = await import('node:path');
  const dir = mkdtempSync(pathMod.join(tmpdir(), 'cn-bench-ocr-'));
  const page = ['Relatório clínico — Doente 0042', 'Data de nascimento: 14/03/1968', ...Array.from({ length: 8 }, (_, i) => line(i).split('\n')[i % 3]!)];
  const file = pathMod.join(dir, 'scan.pdf');
  writeFileSync(file, scannedRecordPdf(page));
  const text = textRecordPdf(page);
  await ocrPdf(file, dir, 'pt'); // warm-up: tesseract loads its language data
  const ocr = await median(3, () => ocrPdf(file, dir, 'pt'));
  const layer = await median(9, () => readPdfText(text));
  console.log(
    `OCR, 1 scanned page at 150 dpi (pt + en): median ${(ocr / 1000).toFixed(2)} s; the same page's text layer ${layer.toFixed(1)} ms, ratio ${(ocr / layer).toFixed(0)}×`,
  );
  rmSync(dir, { recursive: true, force: true });
}
