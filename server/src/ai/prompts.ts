/**
 * Builds the messages for an AI engine from the prompt files in ./prompts/{language}/: one system prompt per
 * language and one instruction file per document kind, each with a `version` in its front matter. The transcript
 * and the clinician's data go in delimited blocks, as data: a closing tag inside them is neutralised so spoken
 * words can never escape their block and pose as instructions.
 */
import { hasUncertainWords } from '../../../contract/uncertain-words.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Language } from '../../../contract/constants.js';
import type { DocumentRequest } from './text-generator.js';
import { SERVER_SOURCES } from '../paths.js';

const DIR = path.join(SERVER_SOURCES, 'ai/prompts');
const TAGS: Record<Language, { transcript: string; data: string; template: string; guide: string; previous: string; change: string; notes: string }> = {
  pt: {
    transcript: 'transcricao',
    data: 'dados',
    template: 'modelo',
    guide: 'preferencias',
    previous: 'versao_anterior',
    change: 'alteracao_pedida',
    notes: 'notas_corrigidas',
  },
  en: {
    transcript: 'transcript',
    data: 'data',
    template: 'template',
    guide: 'preferences',
    previous: 'previous_version',
    change: 'requested_change',
    notes: 'corrected_notes',
  },
  de: {
    transcript: 'transkript',
    data: 'daten',
    template: 'vorlage',
    guide: 'praeferenzen',
    previous: 'vorherige_version',
    change: 'gewuenschte_aenderung',
    notes: 'korrigierte_notizen',
  },
  es: {
    transcript: 'transcripcion',
    data: 'datos',
    template: 'plantilla',
    guide: 'preferencias',
    previous: 'version_anterior',
    change: 'cambio_solicitado',
    notes: 'notas_corregidas',
  },
};
const LINES: Record<Language, { template: string; guide: string; change: string; notes: string; uncertain: string; clinician: string; date: string }> = {
  pt: {
    template: 'Segue o modelo do médico entre <modelo> e </modelo> para a estrutura.',
    guide: 'Respeita as preferências de redação do médico entre <preferencias> e </preferencias>, sem nunca acrescentar factos.',
    change: 'Reescreve a versão anterior aplicando apenas a alteração pedida.',
    notes:
      'O médico corrigiu as notas da consulta entre <notas_corrigidas> e </notas_corrigidas>: são a fonte deste documento e, onde contradizem a transcrição ou os dados, são elas que estão certas.',
    uncertain:
      'Na transcrição, as palavras entre [ e ?] foram mal ouvidas pelo motor de voz: nunca as escrevas como valor, medicamento, dose ou diagnóstico; se importarem, mantém-nas marcadas da mesma forma.',
    clinician: 'Médico',
    date: 'Data',
  },
  en: {
    template: "Follow the clinician's template between <template> and </template> for the structure.",
    guide: "Respect the clinician's writing preferences between <preferences> and </preferences>, never adding facts.",
    change: 'Rewrite the previous version applying only the requested change.',
    notes:
      'The clinician corrected the consultation notes between <corrected_notes> and </corrected_notes>: they are the source of this document, and where they contradict the transcript or the data, they are right.',
    uncertain:
      'In the transcript, words between [ and ?] were not heard clearly by the speech engine: never write them as a value, medicine, dose or diagnosis; where they matter, keep them marked the same way.',
    clinician: 'Clinician',
    date: 'Date',
  },
  de: {
    template: 'Folge für die Struktur der Vorlage zwischen <vorlage> und </vorlage>.',
    guide: 'Beachte die Schreibvorlieben zwischen <praeferenzen> und </praeferenzen>, ohne je Fakten hinzuzufügen.',
    change: 'Schreibe die vorherige Version neu und wende nur die gewünschte Änderung an.',
    notes:
      'Die Ärztin oder der Arzt hat die Konsultationsnotizen zwischen <korrigierte_notizen> und </korrigierte_notizen> korrigiert: Sie sind die Quelle dieses Dokuments, und wo sie dem Transkript oder den Daten widersprechen, gelten sie.',
    uncertain:
      'Im Transkript hat die Spracherkennung die Wörter zwischen [ und ?] nicht sicher verstanden: Schreibe sie nie als Wert, Medikament, Dosis oder Diagnose; wo sie wichtig sind, behalte die Markierung bei.',
    clinician: 'Ärztin/Arzt',
    date: 'Datum',
  },
  es: {
    template: 'Sigue la plantilla del médico entre <plantilla> y </plantilla> para la estructura.',
    guide: 'Respeta las preferencias de redacción del médico entre <preferencias> y </preferencias>, sin añadir nunca hechos.',
    change: 'Reescribe la versión anterior aplicando solo el cambio solicitado.',
    notes:
      'El médico corrigió las notas de la consulta entre <notas_corregidas> y </notas_corregidas>: son la fuente de este documento y, donde contradicen la transcripción o los datos, son ellas las correctas.',
    uncertain:
      'En la transcripción, las palabras entre [ y ?] no se oyeron con claridad: nunca las escribas como valor, medicamento, dosis o diagnóstico; si importan, mantenlas marcadas de la misma forma.',
    clinician: 'Médico',
    date: 'Fecha',
  },
};

type PromptFile = { version: number; text: string };
const cache = new Map<string, PromptFile>();

export function promptFile(language: Language, name: string): PromptFile {
  const key = `${language}/${name}`;
  let file = cache.get(key);
  if (!file) {
    const raw = readFileSync(path.join(DIR, language, `${name}.md`), 'utf8');
    const m = raw.match(/^---\nversion: (\d+)\n---\n([\s\S]*)$/);
    if (!m) throw new Error(`prompt ${key} has no version front matter`);
    file = { version: Number(m[1]), text: m[2]!.trim() };
    cache.set(key, file);
  }
  return file;
}

const block = (tag: string, content: string) => `<${tag}>\n${content.replace(new RegExp(`</?${tag}`, 'gi'), (m) => m.replace('<', '‹'))}\n</${tag}>`;

export type ChatMessage = { role: 'system' | 'user'; content: string };

export function buildMessages(req: DocumentRequest): { messages: ChatMessage[]; promptVersion: string } {
  // The prompts are those of the language written in: a patient summary in German from a Portuguese consultation
  // is asked for in German (its transcript stays as it was said).
  const lang = req.outputLanguage ?? req.language;
  const tags = TAGS[lang];
  const system = promptFile(lang, 'system');
  const kind = promptFile(lang, req.documentKind);
  const systemText = [
    system.text,
    kind.text,
    req.template ? LINES[lang].template : '',
    req.guide ? LINES[lang].guide : '',
    req.change ? LINES[lang].change : '',
    req.editedNotes ? LINES[lang].notes : '',
    hasUncertainWords(req.transcript) ? LINES[lang].uncertain : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const data = Object.entries({ ...req.data, ...req.extraData })
    .filter(([, v]) => v?.trim())
    .map(([k, v]) => `${k}: ${v!.trim()}`)
    .join('\n');
  const user = [
    `${LINES[lang].clinician}: ${req.clinician.name}`,
    `${LINES[lang].date}: ${req.date.toISOString().slice(0, 10)}`,
    block(tags.transcript, req.transcript.trim()),
    block(tags.data, data),
    ...(req.editedNotes ? [block(tags.notes, req.editedNotes.trim())] : []),
    ...(req.template ? [block(tags.template, req.template)] : []),
    ...(req.guide ? [block(tags.guide, req.guide)] : []),
    ...(req.change ? [block(tags.previous, req.change.previousText), block(tags.change, req.change.instructions)] : []),
  ].join('\n\n');
  return {
    messages: [
      { role: 'system', content: systemText },
      { role: 'user', content: user },
    ],
    promptVersion: `${lang}/system@${system.version}+${req.documentKind}@${kind.version}`,
  };
}
