/** Plain constants shared by the web app and the server (no zod here: the web bundle imports this). */
export const LANGUAGES = ['pt', 'en', 'de', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const PASSWORD_MIN = 6;
export const NAME_MIN = 3;
// An optional +, then 6–20 digits, spaces, dots, dashes or brackets (it must start with a digit or a bracket).
export const PHONE_PATTERN = /^\+?[0-9(][0-9 ().-]{5,19}$/;
