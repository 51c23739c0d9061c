/**
 * Change requests that need no understanding, applied without a model in the four languages: add a line to a
 * section ('add review in two weeks to the plan'), remove the sentences about something ('remove the sentence
 * about smoking'), replace a value ('replace 150/95 with 140/90'). Anything else is left for a model: undefined.
 */
import type { Language } from '../../../../contract/constants.js';
import { fold } from './facts.js';

const SECTION_NAMES: Record<string, string[]> = {
  subjective: ['subjective', 'subjetivo', 'subjektiv', 'history', 'historia', 'anamnese', 'anamnesis'],
  objective: ['objective', 'objetivo', 'objektiv', 'examination', 'exame', 'exploracion', 'untersuchung', 'befund'],
  assessment: ['assessment', 'avaliacao', 'beurteilung', 'evaluacion', 'diagnosis', 'diagnostico', 'diagnose'],
  plan: ['plan', 'plano'],
  medication: ['medication', 'medicacao', 'medikation', 'medicacion'],
};
const SECTION = Object.values(SECTION_NAMES).flat().join('|');

type Command = { kind: 'add'; line: string; section: string } | { kind: 'remove'; about: string } | { kind: 'replace'; from: string; to: string };

const PATTERNS: Record<Language, { add: RegExp[]; remove: RegExp; replace: RegExp }> = {
  en: {
    add: [
      new RegExp(`^(?:please )?(?:add|include|write|put)(?: that)? (?<line>.+?) (?:to|in|under|into) (?:the )?(?<section>${SECTION})(?: section)?[.!]?$`, 'd'),
    ],
    remove:
      /^(?:please )?(?:remove|delete|drop|take out)(?: the| all)? (?:sentences?|lines?|mentions?) (?:about|with|containing|that says?|mentioning|on) (?<about>.+?)[.!]?$/d,
    replace: /^(?:please )?(?:replace|change|correct) (?<from>.+?) (?:with|to|by|into) (?<to>.+?)[.!]?$/d,
  },
  pt: {
    add: [
      new RegExp(
        `^(?:por favor,? )?(?:acrescent\\w*|adicion\\w*|inclu\\w*|escrev\\w*|coloc\\w*|ponha|p[oô]e)(?: que)? (?<line>.+?) (?:ao|à|a|no|na|em) (?:secção de |secao de |seção de )?(?<section>${SECTION})[.!]?$`,
        'd',
      ),
    ],
    remove:
      /^(?:por favor,? )?(?:remov\w*|apag\w*|elimin\w*|retir\w*|tir\w*) (?:a |as |toda a |todas as )?(?:frases?|linhas?|mencao|mencoes|referencias?) (?:sobre|com|que diz|que fala d[eoa]s?|que menciona|acerca d[eoa]s?|a|ao|à|de|do|da) (?<about>.+?)[.!]?$/d,
    replace: /^(?:por favor,? )?(?:substitu\w*|troc\w*|mud\w*|alter\w*|corrij\w*|corrig\w*) (?<from>.+?) (?:por|para) (?<to>.+?)[.!]?$/d,
  },
  de: {
    add: [
      new RegExp(
        `^(?:bitte )?(?:fuge|fug|erganze|ergaenze|schreibe|schreib|nimm|trage)\\w* (?<line>.+?) (?:zum|zur|in den|in die|im|unter|bei|zu) (?<section>${SECTION})\\w*(?: hinzu| auf| ein)?[.!]?$`,
        'd',
      ),
    ],
    remove:
      /^(?:bitte )?(?:entferne|entfernen|losche|loschen|streiche|streichen)\w* (?:den |die |alle )?(?:satz|satze|zeile|zeilen|erwahnung) (?:uber|mit|zu|zum|zur|der|die|von) (?<about>.+?)[.!]?$/d,
    replace: /^(?:bitte )?(?:ersetze|ersetzen|andere|andern|korrigiere|korrigieren)\w* (?<from>.+?) (?:durch|mit|zu|in|auf) (?<to>.+?)[.!]?$/d,
  },
  es: {
    add: [
      new RegExp(
        `^(?:por favor,? )?(?:anad\\w*|agreg\\w*|inclu\\w*|escrib\\w*|pon|ponga)(?: que)? (?<line>.+?) (?:al|a la|en el|en la|en|a) (?:apartado de |seccion de )?(?<section>${SECTION})[.!]?$`,
        'd',
      ),
    ],
    remove:
      /^(?:por favor,? )?(?:elimin\w*|borr\w*|quit\w*|suprim\w*) (?:la |las |toda |todas las )?(?:frases?|lineas?|mencion|menciones|referencias?) (?:sobre|con|que dice|que habla de|que menciona|acerca de|a|al|de|del) (?<about>.+?)[.!]?$/d,
    replace: /^(?:por favor,? )?(?:reemplaz\w*|sustitu\w*|cambi\w*|corrig\w*|corrij\w*) (?<from>.+?) (?:por|con|a) (?<to>.+?)[.!]?$/d,
  },
};

/** The command the request makes, with its words as the clinician wrote them (their case and accents). */
function parse(instruction: string, language: Language): Command | undefined {
  const original = instruction.trim().replace(/\s+/g, ' ');
  const folded = fold(original);
  // Folding keeps one character for each of the request's (accents are combining marks on their own).
  const take = (m: RegExpMatchArray, name: string) => {
    const [a, b] = m.indices!.groups![name]!;
    return original
      .slice(a, b)
      .replace(/^["'«„“]|["'»“”]$/g, '')
      .trim();
  };
  const p = PATTERNS[language];
  for (const add of p.add) {
    const m = folded.match(add);
    if (m) return { kind: 'add', line: take(m, 'line'), section: m.groups!.section! };
  }
  const removed = folded.match(p.remove);
  if (removed) return { kind: 'remove', about: take(removed, 'about') };
  const replaced = folded.match(p.replace);
  if (replaced) return { kind: 'replace', from: take(replaced, 'from'), to: take(replaced, 'to') };
  return undefined;
}

const sectionKey = (name: string) => Object.entries(SECTION_NAMES).find(([, names]) => names.includes(name))?.[0];

/** The text with the request applied, or undefined when it is not one of these requests or finds nothing to change. */
export function applyTextCommand(text: string, instruction: string, language: Language): string | undefined {
  const request = instruction.normalize('NFC');
  if (fold(request).length !== request.length) return undefined;
  const command = parse(request, language);
  if (!command) return undefined;
  const lines = text.replace(/\s+$/, '').split('\n');
  if (command.kind === 'add') {
    const key = sectionKey(command.section);
    const names = key ? SECTION_NAMES[key]! : [command.section];
    // The heading of that section, or the bullet that names it ('- Medication: …').
    const at = lines.findIndex((l) => /^#{2,3} /.test(l) && names.some((n) => fold(l).includes(n)));
    if (at < 0) return undefined;
    let end = at + 1;
    while (end < lines.length && !/^#{1,3} /.test(lines[end]!)) end++;
    while (end > at + 1 && !lines[end - 1]!.trim()) end--;
    lines.splice(end, 0, `- ${command.line.replace(/^\p{Ll}/u, (c) => c.toUpperCase())}`);
    return `${lines.join('\n')}\n`;
  }
  if (command.kind === 'remove') {
    const about = fold(command.about);
    let removed = false;
    const kept = lines.flatMap((line) => {
      if (/^#{1,3} /.test(line) || !fold(line).includes(about)) return [line];
      // Only the sentence that says it, when the line holds several.
      const sentences = line.match(/[^.!?]+[.!?]*\s*/g) ?? [line];
      const rest = sentences
        .filter((s) => !fold(s).includes(about))
        .join('')
        .trim();
      removed = true;
      return rest && rest !== '-' ? [rest] : [];
    });
    return removed ? `${kept.join('\n')}\n` : undefined;
  }
  const from = command.from;
  // 'Change heart rate to 88 bpm': a value given for a named measurement changes its value, never its name.
  if (/\d/.test(command.to) && !/\d/.test(from)) {
    const changed = withNamedValue(lines, from, command.to);
    return changed && `${changed.join('\n')}\n`;
  }
  const pattern = new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
  if (!pattern.test(text)) return undefined;
  return `${lines.map((l) => (/^#{1,3} /.test(l) ? l : l.replace(pattern, command.to))).join('\n')}\n`;
}

const VALUE = String.raw`\d+(?:[.,/]\d+)*(?:\s*(?:bpm|mmhg|%|°c|°f|kg\/m²|kg|lb|mg\/dl|mmol\/l|mg|g|ml|cm)(?![\p{L}]))?`;

/**
 * The lines with the value of a named measurement replaced: in a labelled line ('- Heart rate: 80 bpm') the value
 * after the label, in a sentence the value said within a few words after the name ('heart rate was 80'). Undefined
 * when the name is not followed by a value anywhere.
 */
function withNamedValue(lines: string[], name: string, value: string): string[] | undefined {
  const wanted = fold(name)
    .replace(/^(?:the|a|o|as|os|der|die|das|den|el|la|los|las)\s+/, '')
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const labelled = new RegExp(`^(\\s*(?:[-*]\\s+)?(?:\\*\\*)?[^:]*?${wanted}[^:]*?(?:\\*\\*)?:(?:\\*\\*)?\\s*)(${VALUE})`, 'u');
  const said = new RegExp(`(${wanted}(?:[^\\p{L}\\d.!?]+\\p{L}+){0,3}?[^\\p{L}\\d.!?]+)(${VALUE})`, 'u');
  let changed = false;
  const out = lines.map((line) => {
    if (/^#{1,3} /.test(line)) return line;
    const folded = fold(line);
    // Positions are read on the folded line; folding keeps one character for each only where the lengths agree.
    if (folded.length !== line.length) return line;
    const m = folded.match(labelled) ?? folded.match(said);
    if (!m) return line;
    changed = true;
    const at = m.index! + m[1]!.length;
    return `${line.slice(0, at)}${value}${line.slice(at + m[2]!.length)}`;
  });
  return changed ? out : undefined;
}
