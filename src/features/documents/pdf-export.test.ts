// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { documentFileName } from './file-name';
import { documentToPdf } from '../../../contract/document-pdf';

async function pdfText(data: ArrayBuffer): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(data), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return pages;
}

const base = { clinician: 'Dra. Conceição Müller', date: '22/11/2026', pageLabel: (n: number, total: number) => `Página ${n} de ${total}` };

describe('documentToPdf', () => {
  it('keeps the accents of pt, de and es, with the header and page numbers', async () => {
    const pdf = documentToPdf({
      ...base,
      title: 'Notas da consulta',
      markdown: '# Notas\n\n## Avaliação\n\nDor torácica há dois dias; **sem** febre.\n\n- Medicação: paracetamol\n- Straße, Größe, niño, corazón',
    });
    const [page] = await pdfText(pdf.output('arraybuffer'));
    for (const words of ['Notas da consulta', 'Dra. Conceição Müller', '22/11/2026', 'Avaliação', 'Dor torácica há dois dias; sem febre.', 'Medicação: paracetamol', 'Straße, Größe, niño, corazón', 'Página 1 de 1']) {
      expect(page).toContain(words);
    }
    expect(page).not.toContain('**');
  });

  it('paginates a long document, numbering every page and repeating the header', async () => {
    const paragraph = 'O doente refere cefaleia frontal com irradiação occipital, sem náuseas nem fotofobia, com melhoria parcial após analgesia. ';
    const markdown = Array.from({ length: 60 }, (_, i) => `## Secção ${i + 1}\n\n${paragraph.repeat(3)}`).join('\n\n');
    const pdf = documentToPdf({ ...base, title: 'Resumo clínico', markdown });
    const pages = await pdfText(pdf.output('arraybuffer'));
    expect(pages.length).toBeGreaterThan(5);
    pages.forEach((text, i) => {
      expect(text).toContain(`Página ${i + 1} de ${pages.length}`);
      expect(text).toContain('Resumo clínico');
    });
    expect(pages.join(' ')).toContain('Secção 60');
  });

  it('names files from the title without accents', () => {
    expect(documentFileName('Certificado de incapacidade temporária', new Date('2026-11-22T10:00:00Z'), 'pdf')).toBe('certificado-de-incapacidade-temporaria-2026-11-22.pdf');
    expect(documentFileName('???', new Date('2026-11-22T10:00:00Z'), 'md')).toBe('document-2026-11-22.md');
  });
});
