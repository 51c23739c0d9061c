/**
 * Text of patient records as the screeners read it. A record's evidence is its own sentences only: the lines that
 * name a file (`=== report.pdf ===`, once written between a patient's files) are dropped, so a file name can
 * never be quoted or read as a finding. Sentences are split where a sentence ends, never inside a number
 * ('7,5 %', '1.73 m²'), after an abbreviation ('Dr.', 'z. B.', 'p. ex.') or a list number ('1.'), and lines a
 * PDF wrapped mid-sentence are joined again (headings are not), so a quote is always a whole sentence.
 */
import { isAbbreviation } from './sentences.js';
import { fold } from './text.js';

/** Lower case without accents, so 'Diabético' and 'diabetico', 'años' and 'anos' compare equal. */
export const normalise = fold;

/** What separates one file's text from the next when a patient's files are read together (no file names). */
export const DOCUMENT_SEPARATOR = '\n\n\f\n\n';

/** A line that only names a file: a header between files, not part of any record. */
const FILE_HEADER = /^\s*={2,}\s*.*?\s*={2,}\s*$|^\s*[^\s/\\]+\.(?:pdf|txt|docx?|png|jpe?g|tiff?)\s*$/i;

const UNIT_END =
  /(?:\d\s*(?:\/\s*)?(?:cm|mm|m|kg|g|mg|mcg|µg|ml|l|min|h|hrs?|bpm|mmhg|mm hg|kg\/m2|kg\/m²)|\b(?:days?|weeks?|months?|years?|hours?|minutes?)\s+ago)\.$/iu;

/**
 * Words no sentence ends with (prepositions, articles, conjunctions; four languages), in lower case. Not 'no',
 * 'na', 'nos', 'nas': Portuguese for 'in the', but also the answer closing a field ('Current smoker: no').
 */
const OPEN_END =
  /(?<![\p{L}\d])(?:on|in|at|of|to|for|from|with|since|and|or|the|an|as|by|than|de|da|do|das|dos|em|com|desde|por|para|pelo|pela|ou|um|uma|von|vom|mit|seit|und|oder|der|die|dem|den|im|am|zu|zum|zur|bei|del|en|con|y|el|la|los|las|un|una)$/u;
/** A line starting a list item: a bullet or a number ('- metformin', '2. Type 2 diabetes', '3) Asthma'). */
const LIST_ITEM = /^(?:[-*•·–]\s|\d{1,2}[.)]\s)/;
/** The longest line wrapped lines are joined into. */
const MAX_LINE = 2000;

/** Whether the full stop at the end of `before` ends a sentence, given the text that follows it. */
function endsSentence(before: string, after: string): boolean {
  const word = normalise(before.match(/([\p{L}\p{N}]+)\.$/u)?.[1] ?? '');
  if (!/^\s*(?:[\p{Lu}\p{N}"'(«¿¡—–-]|\p{Ll}\p{Lu})/u.test(after)) return false; // the next starts with a capital ('eGFR' too) or a number
  // A unit after its number, or 'ago' after a time, ends the sentence before a capitalised word ('2 days ago. She
  // denies…', 'Height 172 cm. Weight…', '18/min. Temperature…'), though each is an abbreviation elsewhere.
  if (UNIT_END.test(before) && /^\s*\p{Lu}(?:\p{Ll}|\p{Lu}*(?!\p{L}))/u.test(after)) return true;
  if (isAbbreviation(word)) return false;
  if (/^\p{L}$/u.test(word)) return false; // an initial ('J. Silva') or 'z. B.'
  if (/^\d{1,2}$/.test(word) && /^\s*\d{1,2}\.$/.test(before)) return false; // a list number at the line's start
  // A German ordinal after its article or preposition ('in der 12. SSW', 'am 3. Tag', 'seit dem 2. Lebensjahr').
  if (/(?<![\p{L}])(?:der|die|das|dem|den|des|am|im|zum|zur|vom|ab|seit|bis|bei|nach|vor)\s+\d{1,2}\.$/iu.test(before)) return false;
  return true;
}

/** One line of text split into sentences at '.', '!' or '?' that end one. */
function splitLine(line: string): string[] {
  const out: string[] = [];
  let start = 0;
  const ends = /[.!?]+(?=\s+\S)/g;
  for (let m = ends.exec(line); m; m = ends.exec(line)) {
    const end = m.index + m[0].length;
    const before = line.slice(start, end);
    if (m[0].includes('.') && m[0] === '.' && !endsSentence(before, line.slice(end))) continue;
    // Leader dots between a lab's name and its value ('TFGe .... 54 mL/min') end nothing.
    if (/^\.{2,}$/.test(m[0]) && /^\s*\d/.test(line.slice(end))) continue;
    out.push(before.trim());
    start = end;
  }
  out.push(line.slice(start).trim());
  return out;
}

/**
 * The record's lines as written, with a PDF's wrapped lines joined: a line that does not end a sentence, a label
 * or a list item continues on the next one when that starts in lower case or with a number and unit ('12 weeks of'
 * + 'gestation.', 'recorded as' + '115/80 mm Hg').
 */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  // Words in the line being built: kept as it grows, so joining a long run of wrapped lines stays linear.
  let words = 0;
  const join = (line: string, glue: string) => {
    lines[lines.length - 1] = `${lines.at(-1)!}${glue}${line}`;
    words += line.split(' ').length;
  };
  for (const raw of text.split(/\r?\n|\f/)) {
    const line = raw.replace(/\s+/g, ' ').trim();
    if (!line || FILE_HEADER.test(line)) {
      lines.push('');
      words = 0;
      continue;
    }
    const previous = lines.at(-1);
    // A line is one sentence at most this long: a scan without full stops does not become one.
    const open = previous !== undefined && previous.length < MAX_LINE && !LIST_ITEM.test(line);
    const tail = previous?.slice(-40) ?? '';
    // A word the PDF or the scan hyphenated at the line's end ('Diabetes mel-' + 'litus Typ 2') is one word again.
    if (open && /\p{L}-$/u.test(tail) && /^\p{Ll}/u.test(line)) {
      lines[lines.length - 1] = previous.slice(0, -1);
      join(line, '');
      continue;
    }
    // A line ending on a word no sentence ends with ('admitted on', 'since', 'consulta de') goes on, whatever follows.
    if (open && words >= 3 && OPEN_END.test(tail) && !/^\p{Lu}{3,}\b/u.test(line)) {
      join(line, ' ');
      continue;
    }
    // A short line is a heading ('Antecedentes pessoais'), not a sentence the PDF wrapped.
    const continues =
      open &&
      words >= 4 &&
      !/[.!?:;]$/.test(tail) &&
      /^\(?\p{Ll}[\p{Ll}'-]*(?:[\s,.;:)]|$)|^\d+(?:[.,]\d+)?\s*[\p{Ll}%]|^\d{2,3}\s*\/\s*\d{2,3}\s*mm\s?[hH][gG]\b/u.test(line);
    if (continues) join(line, ' ');
    else {
      lines.push(line);
      words = line.split(' ').length;
    }
  }
  return lines.filter(Boolean);
}

/**
 * Digits a scan read as letters, in words that are otherwise numbers ('8l anos', 'FEVE 3O %', 'PA l10/70',
 * 'l 250 pg/mL'), and a zero read inside a word ('C0PD'), put right on normalised text. Words that mix letters
 * and digits by name ('hba1c', 'fev1', 't2dm', 'o2') are left alone.
 */
export function repairOcrDigits(norm: string): string {
  return norm
    .replace(/(?<![a-z0-9])[0-9lo]*[0-9][0-9lo]*(?![a-z0-9])/g, (w, at: number, all: string) =>
      // 'O2' is oxygen, unless it sits in a date ('O4/O2/l949').
      /[lo]/.test(w) && (w !== 'o2' || /[/.]\d/.test(all.slice(at + 2, at + 4)) || /\d[/.]$/.test(all.slice(Math.max(0, at - 2), at)))
        ? w.replace(/l/g, '1').replace(/o/g, '0')
        : w,
    )
    .replace(/(?<![a-z0-9])l(?= \d{3}(?![0-9]))/g, '1')
    .replace(/\b(type|typ|tipo) [li]\b/g, '$1 1')
    .replace(/(?<![a-z0-9])([a-z]{1,3})0([a-z]{2,})(?![a-z0-9])/g, '$1o$2');
}

/** Sentences (or list lines) of a document, each kept as written for quoting; file-name headers are left out. */
export function sentences(text: string): string[] {
  return logicalLines(text)
    .flatMap(splitLine)
    .filter((s) => s.length > 1);
}
