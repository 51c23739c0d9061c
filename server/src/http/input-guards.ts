/**
 * Text the database cannot hold is refused at the door. PostgreSQL stores no NUL character in text, and an
 * insert that carries one fails deep inside a service as a 500; every string of a request (body, query string,
 * path parameters, and their keys) is checked once here instead, before validation, and answered 400 naming the
 * field.
 */
import type { FastifyRequest } from 'fastify';
import type { App } from './context.js';
import { DomainError } from '../errors/domain-error.js';

const NUL = '\u0000';

/** The path (`user_inputs.0.value`) of the first string or key holding a NUL character, if any. */
export function findNulCharacter(value: unknown, root: string): string | undefined {
  // Iterative, so a deeply nested body cannot exhaust the stack.
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return at;
    } else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        const childPath = at ? `${at}.${k}` : k;
        if (k.includes(NUL)) return at || 'body';
        stack.push([child, childPath]);
      }
    }
  }
  return undefined;
}

export const invalidCharacters = (field: string) =>
  new DomainError(400, 'invalid_characters', 'The text contains a character that cannot be stored (NUL)', { [field]: 'invalid_characters' });

function check(request: FastifyRequest) {
  const field =
    findNulCharacter(request.params, '') ?? findNulCharacter(request.query, '') ?? (request.isMultipart() ? undefined : findNulCharacter(request.body, ''));
  if (field !== undefined) throw invalidCharacters(field || 'body');
}

export function registerInputGuards(app: App) {
  app.addHook('preValidation', async (request) => check(request));
}
