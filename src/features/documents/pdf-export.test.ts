// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { documentFileName } from './file-name';
import { documentToPdf, type PdfDocumentInput } from '../../../contract/document-pdf';
import { nodeFonts } from '../../../contract/pdf-fonts-node';
import { CLINICAL_MARKDOWN, CLINICAL_STRINGS } from './clinical-text.fixture';

type Run = { text: string; font: string };
/** A run of text where it is drawn, in points from the page's bottom left. */
type Item = { text: string; x: number; right: number; y: number; pageWidth: number };

/** Each page's text as lines (runs on one baseline joined as written), every run with the font it is set in and where it is drawn. */
async function pdfText(data: ArrayBuffer): Promise<{ pages: string[]; runs: Run[]; items: Item[] }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // fontExtraProperties: the font objects keep their PDF names, to tell bold from regular.
  const doc = await pdfjs.getDocument({ data: new Uint8Array(data), verbosity: 0, fontExtraProperties: true }).promise;
  const pages: string[] = [];
  const runs: Run[] = [];
  const items: Item[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const pageWidth = page.getViewport({ scale: 1 }).width;
    // pdf.js otherwise "normalizes" what it extracts (µ MICRO SIGN comes back as Greek μ): the test wants the PDF's own characters.
    const content = await page.getTextContent({ disableNormalization: true });
    await page.getOperatorList();
    let text = '';
    for (const item of content.items) {
      if (!('str' in item)) continue;
      text += item.str + (item.hasEOL ? '\n' : '');
      const font = page.commonObjs.get(item.fontName) as { name?: string };
      if (!item.str.trim()) continue;
      runs.push({ text: item.str, font: font.name ?? '' });
      const [, , , , x = 0, y = 0] = item.transform as number[];
      items.push({ text: item.str, x, right: x + item.width, y, pageWidth });
    }
    pages.push(text);
  }
  return { pages, runs, items };
}

const base = { clinician: 'Dra. Conceição Müller', date: '22/11/2026', pageLabel: (n: number, total: number) => `Página ${n} de ${total}` };
const pdfOf = async (input: Omit<PdfDocumentInput, keyof typeof base>) => (await documentToPdf({ ...base, ...input }, nodeFonts)).output('arraybuffer');

describe('documentToPdf', () => {
  it('keeps the accents of pt, de and es, with the header and page numbers', async () => {
    const { pages } = await pdfText(
      await pdfOf({
        title: 'Notas da consulta',
        markdown: '# Notas\n\n## Avaliação\n\nDor torácica há dois dias; **sem** febre.\n\n- Medicação: paracetamol\n- Straße, Größe, niño, corazón',
      }),
    );
    const page = pages[0]!;
    for (const words of [
      'Notas da consulta',
      'Dra. Conceição Müller',
      '22/11/2026',
      'Avaliação',
      'Dor torácica há dois dias; sem febre.',
      'Medicação: paracetamol',
      'Straße, Größe, niño, corazón',
      'Página 1 de 1',
    ]) {
      expect(page).toContain(words);
    }
    expect(page).not.toContain('**');
  });

  it('prints the symbols, Greek letters and accents clinicians write exactly as written', async () => {
    const { pages } = await pdfText(await pdfOf({ title: 'Análise ≥ α', markdown: CLINICAL_MARKDOWN }));
    const text = pages.join('\n');
    for (const s of CLINICAL_STRINGS) expect(text).toContain(s);
    expect(pages[0]).toContain('Análise ≥ α');
  });

  it('keeps list numbers, a list that starts at 4, nested lists and the cells of a table', async () => {
    const markdown =
      '1. Primeiro\n2. Segundo\n   - sub-item\n3. Terceiro\n\nTexto.\n\n4. Quarto\n5. Quinto\n\n| Parâmetro | Valor | Referência |\n|---|--:|---|\n| HbA1c | 7,2 % | < 7,0 % |\n| TA | 135/85 mmHg | ≤ 140/90 |';
    const { pages } = await pdfText(await pdfOf({ title: 'Listas', markdown }));
    const lines = pages[0]!.split('\n').map((l) => l.trim());
    for (const line of ['1. Primeiro', '2. Segundo', '3. Terceiro', '4. Quarto', '5. Quinto']) expect(lines).toContain(line);
    expect(pages[0]).toContain('sub-item');
    expect(pages[0]).not.toContain('•');
    for (const cell of ['Parâmetro', 'Valor', 'Referência', 'HbA1c', '7,2 %', '< 7,0 %', '135/85 mmHg', '≤ 140/90']) expect(pages[0]).toContain(cell);
    expect(pages[0]).not.toContain('|');
  });

  it('sets bold text in the bold face and italic in the oblique one', async () => {
    const { runs } = await pdfText(await pdfOf({ title: 'T', markdown: 'Doente **sem febre** e _com dor_ ligeira.' }));
    expect(runs.find((r) => r.text.includes('sem febre'))?.font).toBe('DejaVuSans-Bold');
    expect(runs.find((r) => r.text.includes('com dor'))?.font).toBe('DejaVuSans-Oblique');
    expect(runs.find((r) => r.text.includes('Doente'))?.font).toBe('DejaVuSans');
  });

  it('writes a character the font lacks as its code, never dropping it', async () => {
    const { pages } = await pdfText(await pdfOf({ title: 'T', markdown: 'Nome: 王 — dor 😀 forte' }));
    expect(pages[0]).toContain('Nome: [U+738B] — dor [U+1F600] forte');
  });

  it('embeds only the glyphs used: the PDF stays far smaller than the font files', async () => {
    const bytes = (await pdfOf({ title: 'Notas', markdown: CLINICAL_MARKDOWN })).byteLength;
    // The four faces weigh 2.7 MB; each embedded subset keeps jsPDF's fixed tables (about 50 KB) and the glyphs used.
    expect(bytes).toBeLessThan(260_000);
  });

  it('splits a long table across pages, repeating its header, and paginates text', async () => {
    const rows = Array.from(
      { length: 80 },
      (_, i) =>
        `| Análise ${i + 1} | ${(i * 1.5).toFixed(1).replace('.', ',')} mg/dL | observação longa que ocupa mais do que uma linha da célula da tabela ${i + 1} |`,
    );
    const paragraph = 'O doente refere cefaleia frontal com irradiação occipital, sem náuseas nem fotofobia, com melhoria parcial após analgesia. ';
    const markdown = [
      `| Análise | Valor | Nota |\n|---|---|---|\n${rows.join('\n')}`,
      ...Array.from({ length: 30 }, (_, i) => `## Secção ${i + 1}\n\n${paragraph.repeat(3)}`),
    ].join('\n\n');
    const { pages } = await pdfText(await pdfOf({ title: 'Resumo clínico', markdown }));
    expect(pages.length).toBeGreaterThan(5);
    pages.forEach((text, i) => {
      expect(text).toContain(`Página ${i + 1} de ${pages.length}`);
      expect(text).toContain('Resumo clínico');
    });
    const all = pages.join('\n');
    for (let i = 1; i <= 80; i++) expect(all).toContain(`Análise ${i}\n`.replace('\n', ''));
    // The header row opens the table on every page it runs onto.
    const tablePages = pages.filter((p) => /Análise \d/.test(p));
    expect(tablePages.length).toBeGreaterThan(1);
    for (const p of tablePages) expect(p).toMatch(/Análise\s*Valor\s*Nota/);
    expect(all).toContain('Secção 30');
  });

  it('prints a line that reads as a link reference definition as written', async () => {
    const { pages } = await pdfText(await pdfOf({ title: 'T', markdown: 'Antes\n\n[Alergias]: penicilina\n\n[1]: Paracetamol\n\nVer [1].' }));
    for (const line of ['[Alergias]: penicilina', '[1]: Paracetamol', 'Ver [1].']) expect(pages[0]).toContain(line);
  });

  it('reads Windows and old Mac line ends as line ends, printing no carriage return', async () => {
    const { pages } = await pdfText(await pdfOf({ title: 'T', markdown: 'Linha um\r\nLinha dois\r\n\r\n- a\r- b' }));
    expect(pages[0]).toContain('Linha um\nLinha dois');
    expect(pages[0]).not.toContain('U+000D');
    expect(pages[0]).not.toContain('\r');
  });

  it('never cuts a word of a table too wide for the page: the table is set smaller, or written row by row', async () => {
    const table = (header: string[], rows: string[][]) => [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
    const dates = Array.from({ length: 9 }, (_, i) => `0${i + 1}/11/2026`);
    const tables = [
      table(
        ['Análise', ...dates],
        [
          ['Creatinina (mg/dL)', ...dates.map((_, i) => (1.05 + i / 10).toFixed(2))],
          ['Glicose', ...dates.map((_, i) => String(100 + i * 11))],
        ],
      ),
      table(
        Array.from({ length: 12 }, (_, i) => `Dia ${i + 1}`),
        [Array.from({ length: 12 }, (_, i) => `${(1250.75 + i).toFixed(2)} mg`)],
      ),
      table(
        Array.from({ length: 60 }, (_, i) => `h${i}`),
        [Array.from({ length: 60 }, (_, i) => `${i}mg`)],
      ),
    ];
    for (const markdown of tables) {
      const { pages, items } = await pdfText(await pdfOf({ title: 'T', markdown }));
      const cells = markdown
        .split('\n')
        .filter((_, i) => i !== 1)
        .flatMap((line) =>
          line
            .split('|')
            .map((c) => c.trim())
            .filter(Boolean),
        );
      const words = new Set(cells.flatMap((cell) => cell.split(' ')));
      // Every word printed is a whole word of a cell (a fragment such as "026" or "75" is not), and every word is printed.
      const printed = pages
        .join('\n')
        .replace(/T\n|Dra\. Conceição Müller · 22\/11\/2026|Página \d+ de \d+/g, '')
        .split(/[\s:]+/)
        .filter(Boolean);
      for (const word of printed) expect(words).toContain(word);
      for (const word of words) expect(printed).toContain(word);
      for (const item of items) expect(item.right).toBeLessThanOrEqual(item.pageWidth);
    }
  });

  it('keeps a long title and a long clinician line within the page, above the text, with the date shown', async () => {
    const title =
      'Relatório de alta hospitalar — Serviço de Medicina Interna — Doente internado por pneumonia adquirida na comunidade com insuficiência respiratória';
    const clinician =
      'Dra. Maria da Conceição Albuquerque Vasconcelos de Sá e Menezes, Especialista em Medicina Interna, Hospital de Santa Maria, Centro Hospitalar Universitário Lisboa Norte';
    for (const input of [
      { title, clinician },
      { title: title.repeat(4), clinician: clinician.repeat(3) },
    ]) {
      const pdf = await documentToPdf({ ...base, ...input, markdown: 'Texto do relatório 5 mg' }, nodeFonts);
      const { pages, items } = await pdfText(pdf.output('arraybuffer'));
      expect(pages[0]).toContain('22/11/2026');
      for (const item of items) expect(item.right).toBeLessThanOrEqual(item.pageWidth);
      // Every header line stands above the text, and no two lines share a baseline.
      const body = items.find((item) => item.text.includes('Texto do relatório'))!;
      const header = items.filter((item) => item.y > body.y);
      const words = header.map((item) => item.text).join(' ');
      expect(words).toContain('Relatório de alta hospitalar');
      expect(words).toContain('Dra. Maria da Conceição');
      expect(new Set(header.map((item) => Math.round(item.y))).size).toBe(header.length);
      if (input.title === title) {
        expect(words.replace(/\s+/g, ' ')).toContain(title.split(' ').slice(-3).join(' '));
        expect(words.replace(/\s+/g, ' ')).toContain(clinician.split(' ').slice(-3).join(' '));
      } else expect(words).toContain('…');
    }
  });

  it('keeps the text of quotes and lists nested deeper than the page can indent on the page', async () => {
    const quote = `${'>'.repeat(40)} deep quoted dose 5 mg`;
    const list = Array.from({ length: 30 }, (_, i) => `${'   '.repeat(i)}${i % 2 ? '1.' : '-'} level ${i} dose ${i} mg`).join('\n');
    const { pages, items } = await pdfText(await pdfOf({ title: 'T', markdown: `${quote}\n\n${list}` }));
    const lines = pages
      .join('\n')
      .split('\n')
      .map((line) => line.trim());
    expect(lines).toContain('deep quoted dose 5 mg');
    for (let i = 0; i < 30; i++) expect(lines.some((line) => line.endsWith(`level ${i} dose ${i} mg`))).toBe(true);
    // Numbered items keep their number, before their text or on the line of it.
    expect(lines).toContain('1. level 29 dose 29 mg');
    for (const item of items) expect(item.right).toBeLessThanOrEqual(item.pageWidth);
  });

  it('names files from the title without accents', () => {
    expect(documentFileName('Certificado de incapacidade temporária', new Date('2026-11-22T10:00:00Z'), 'pdf')).toBe(
      'certificado-de-incapacidade-temporaria-2026-11-22.pdf',
    );
    expect(documentFileName('???', new Date('2026-11-22T10:00:00Z'), 'md')).toBe('document-2026-11-22.md');
  });
});
