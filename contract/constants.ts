/** Plain constants shared by the web app and the server (no zod here: the web bundle imports this). */
export const LANGUAGES = ['pt', 'en', 'de', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const isLanguage = (value: unknown): value is Language => (LANGUAGES as readonly unknown[]).includes(value);
export const PASSWORD_MIN = 6;
export const NAME_MIN = 3;
// An optional +, then 6–20 digits, spaces, dots, dashes or brackets (it must start with a digit or a bracket).
export const PHONE_PATTERN = /^\+?[0-9(][0-9 ().-]{5,19}$/;

/** The assistants catalogues (spec §2 country catalogue selector); `international` is listed everywhere. */
export const CATALOGUES = ['international', 'pt', 'de', 'es'] as const;
export type Catalogue = (typeof CATALOGUES)[number];
/** The catalogue a clinician sees first: their language's country (English has none of its own). */
export const homeCatalogueOf = (language: Language): Catalogue => (language === 'en' ? 'international' : language);

/** Addresses one invitation request may carry (the form says so before sending). */
export const MAX_INVITES = 50;

/** How long the clinician's label for the patient may be: a name or an initials-and-number, not a note. */
export const PATIENT_LABEL_MAX = 80;
