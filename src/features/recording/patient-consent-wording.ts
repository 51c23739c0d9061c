import type { Language } from '../../../contract/constants';

/**
 * What the patient reads and answers on the screen, in the patient's language, whatever language the clinician's
 * interface speaks: the four texts are held here side by side, rather than in the interface's catalogs, because the
 * screen shows a language other than the one loaded. Plain words, no jargon, as a patient information leaflet.
 */
export const PATIENT_CONSENT: Record<Language, { title: string; body: string; agree: string; decline: string; language: string }> = {
  pt: {
    title: 'Gravação da consulta',
    body: 'Esta consulta é gravada para ajudar o seu médico a escrever as notas da consulta. A gravação só serve para isso e é tratada com confidencialidade, segundo as regras de privacidade da clínica. Pode recusar: a consulta decorre da mesma forma.',
    agree: 'Concordo com a gravação',
    decline: 'Não concordo',
    language: 'Português',
  },
  en: {
    title: 'Recording this consultation',
    body: "This consultation is recorded to help your doctor write its notes. The recording is used only for that and is kept confidential, under the clinic's privacy rules. You may say no: the consultation goes ahead just the same.",
    agree: 'I agree to the recording',
    decline: 'I do not agree',
    language: 'English',
  },
  de: {
    title: 'Aufnahme dieses Gesprächs',
    body: 'Dieses Gespräch wird aufgenommen, damit Ihre Ärztin oder Ihr Arzt die Notizen dazu schreiben kann. Die Aufnahme dient nur diesem Zweck und wird nach den Datenschutzregeln der Praxis vertraulich behandelt. Sie können ablehnen: Das Gespräch findet genauso statt.',
    agree: 'Ich bin mit der Aufnahme einverstanden',
    decline: 'Ich bin nicht einverstanden',
    language: 'Deutsch',
  },
  es: {
    title: 'Grabación de la consulta',
    body: 'Esta consulta se graba para ayudar a su médico a escribir las notas de la consulta. La grabación solo se usa para eso y se trata de forma confidencial, según las normas de privacidad de la clínica. Puede negarse: la consulta se realiza igual.',
    agree: 'Acepto la grabación',
    decline: 'No acepto',
    language: 'Español',
  },
};
