import type { FastifyRequest } from 'fastify';
import { LANGUAGES, type Language } from '../../../contract/account.js';

/** The first supported language of Accept-Language, else pt (the product's default). */
export function requestLanguage(request: FastifyRequest): Language {
  const header = request.headers['accept-language'] ?? '';
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]?.trim().slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(tag as Language)) return tag as Language;
  }
  return 'pt';
}
