/**
 * PDF export of a generated document (contract/document-pdf.ts, the code the browser and the server's FHIR export run): time and
 * size for a 1-page and a 10-page document, against a reference measured in the same run (the same text turned
 * into plain text only), so the figure says what jsPDF's layout costs on this machine.
 */
import { performance } from 'node:perf_hooks';
import { markdownToPlainText } from '../../contract/markdown-text';
import { documentToPdf } from '../../contract/document-pdf';
import { nodeFonts } from '../../contract/pdf-fonts-node';

const paragraph =
  'Doente de 58 anos com dor torácica há dois dias, sem irradiação, agravada pelo esforço. Nega febre, dispneia ou síncope. Medicação habitual: metformina 850 mg e atorvastatina 20 mg. ';

function documentOf(sections: number) {
  return [
    '# Notas da consulta',
    ...Array.from({ length: sections }, (_, i) => `## Secção ${i + 1}\n\n${paragraph.repeat(3)}\n\n- Tensão arterial 135/85\n- Próxima consulta em 3 meses`),
  ].join('\n\n');
}

async function measure(fn: () => unknown, runs: number) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(runs / 2)]!, p95: times[Math.floor(runs * 0.95)]! };
}

const label = (n: number, total: number) => `Página ${n} de ${total}`;
for (const [name, sections] of [
  ['1 page', 3],
  ['10 pages', 36],
] as const) {
  const markdown = documentOf(sections);
  const make = () =>
    documentToPdf({ title: 'Notas da consulta', clinician: 'Dra. Conceição Müller', date: '22 de novembro de 2026', markdown, pageLabel: label }, nodeFonts);
  const pdf = await make();
  const pages = pdf.getNumberOfPages();
  const bytes = pdf.output('arraybuffer').byteLength;
  for (let i = 0; i < 5; i++) await make(); // warm-up (the font files are read once)
  const t = await measure(async () => (await make()).output('arraybuffer'), 30);
  const reference = await measure(() => markdownToPlainText(markdown), 30);
  console.log(
    `PDF export, ${name}: ${pages} page(s), ${(bytes / 1024).toFixed(1)} KB, median ${t.median.toFixed(1)} ms, p95 ${t.p95.toFixed(1)} ms ` +
      `(plain-text reference ${reference.median.toFixed(2)} ms, ratio ${(t.median / reference.median).toFixed(0)}×)`,
  );
}
