import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every translated string of one catalog (msgstr), with its id. */
const entries = (locale: string) => {
  const po = readFileSync(path.resolve('src/locales', locale, 'messages.po'), 'utf8');
  return [...po.matchAll(/^msgid "(.+)"\nmsgstr "(.*)"$/gm)].map((m) => ({ id: m[1]!, str: m[2]! }));
};

describe('catalog wording', () => {
  it('Portuguese is European Portuguese: no Brazilian words nor "você"', () => {
    // Each with its European form: sessão/palavra-passe, ecrã, utilizador, ficheiro, transferir, registar, telemóvel.
    // Letters, not \b: \b sees no boundary after an accented letter such as the ê of "você".
    const brazilian = /(?<!\p{L})(você|vocês|senhas?|telas?|usuári[oa]s?|arquivos?|baixar|cadastr\p{L}*|celular(es)?|salvar|aplicativo|contato)(?!\p{L})/iu;
    expect(entries('pt').filter((e) => brazilian.test(e.str))).toEqual([]);
  });

  it.each(['pt', 'de', 'es'])('%s names the record system settings in its own words (no "Client id", no "scopes")', (locale) => {
    const untranslated = /client id|\bscopes\b/i;
    expect(entries(locale).filter((e) => untranslated.test(e.str))).toEqual([]);
  });
});
