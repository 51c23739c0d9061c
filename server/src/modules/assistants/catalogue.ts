import type { Language } from '../../../../contract/constants.js';

type L = Record<Language, string>;
export type Assistant = { key: string; name: L; description: L };

/** The assistants offered in the chat; their instructions are versioned prompt files (ai/prompts/{lang}/assistant_{key}.md). */
export const ASSISTANTS: Assistant[] = [
  {
    key: 'clinical_questions',
    name: { pt: 'Perguntas clínicas', en: 'Clinical questions', de: 'Klinische Fragen', es: 'Preguntas clínicas' },
    description: {
      pt: 'Respostas breves e prudentes a dúvidas clínicas, a confirmar em fontes oficiais.',
      en: 'Brief, careful answers to clinical questions, to be checked in official sources.',
      de: 'Kurze, umsichtige Antworten auf klinische Fragen, in offiziellen Quellen zu prüfen.',
      es: 'Respuestas breves y prudentes a dudas clínicas, a comprobar en fuentes oficiales.',
    },
  },
  {
    key: 'writing_helper',
    name: { pt: 'Ajuda na escrita', en: 'Writing help', de: 'Schreibhilfe', es: 'Ayuda para redactar' },
    description: {
      pt: 'Reformula, resume ou traduz os seus textos clínicos sem acrescentar factos.',
      en: 'Rephrases, summarises or translates your clinical texts without adding facts.',
      de: 'Formuliert, fasst zusammen oder übersetzt Ihre klinischen Texte, ohne Fakten hinzuzufügen.',
      es: 'Reformula, resume o traduce sus textos clínicos sin añadir hechos.',
    },
  },
];

export const findAssistant = (key: string) => ASSISTANTS.find((a) => a.key === key);
