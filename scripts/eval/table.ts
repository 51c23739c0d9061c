/** The figures of many notes pooled into one row, and rows printed as a Markdown table for bench/README.md. */
import type { DialogueScore } from './score.js';
import { mean, median } from './text.js';

export type Row = { set: string; form: string; scores: DialogueScore[] };

const sum = (scores: DialogueScore[], f: (s: DialogueScore) => number) => scores.reduce((a, s) => a + f(s), 0);
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(0)}%` : '–');
const one = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');
const two = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '–');
const int = (n: number) => n.toLocaleString('en-US');

export const COLUMNS = [
  'set',
  'form',
  'n',
  'R-1',
  'R-2',
  'R-L',
  'pasted R-1',
  'pasted R-L',
  'facts countable',
  'kept',
  'placed',
  'wrong values',
  'unit mismatch',
  'decimals cut',
  'invented',
  'fillers /100 w',
  'fragments',
  'verbatim',
  'length med / mean',
  'follow-up',
  'omission recall',
];

export function rowCells({ set, form, scores: s }: Row): string[] {
  const countable = sum(s, (x) => x.facts.countable);
  const followUps = s.filter((x) => x.followUp);
  const withOmissions = s.filter((x) => x.omissions);
  return [
    set,
    form,
    String(s.length),
    one(mean(s.map((x) => x.rouge.rouge1))),
    one(mean(s.map((x) => x.rouge.rouge2))),
    one(mean(s.map((x) => x.rouge.rougeL))),
    one(mean(s.map((x) => x.pasted.rouge1))),
    one(mean(s.map((x) => x.pasted.rougeL))),
    `${int(countable)}/${int(sum(s, (x) => x.facts.total))}`,
    pct(
      sum(s, (x) => x.facts.kept),
      countable,
    ),
    pct(
      sum(s, (x) => x.facts.placed),
      countable,
    ),
    `${int(sum(s, (x) => x.wrong.wrong.length))}/${int(sum(s, (x) => x.wrong.checked))}`,
    int(sum(s, (x) => x.wrong.unitMismatches.length)),
    `${int(sum(s, (x) => x.decimals.cut.length))}/${int(sum(s, (x) => x.decimals.decimals))}`,
    `${int(sum(s, (x) => x.invented.length))} (${two(sum(s, (x) => x.invented.length) / Math.max(1, s.length))}/note)`,
    one(
      (100 * sum(s, (x) => x.fillers.fillers)) /
        Math.max(
          1,
          sum(s, (x) => x.fillers.words),
        ),
    ),
    pct(
      sum(s, (x) => x.fragments),
      sum(s, (x) => x.lines),
    ),
    pct(
      sum(s, (x) => x.verbatim.verbatim),
      sum(s, (x) => x.verbatim.sentences),
    ),
    `${two(median(s.map((x) => x.length)))} / ${two(mean(s.map((x) => x.length)))}`,
    `${followUps.filter((x) => x.followUp!.captured).length}/${followUps.length}`,
    withOmissions.length
      ? `${pct(
          sum(withOmissions, (x) => x.omissions!.named),
          sum(withOmissions, (x) => x.omissions!.missed),
        )} (${two(sum(withOmissions, (x) => x.omissions!.listed) / withOmissions.length)} listed/note)`
      : 'n/a',
  ];
}

export function markdownTable(rows: Row[]): string {
  const cells = [COLUMNS, ...rows.map(rowCells)];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [
    line(cells[0]!),
    `|${widths.map((w, i) => (i < 2 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...cells.slice(1).map(line),
  ].join('\n');
}
