/**
 * Which licences the product may ship under its own Apache-2.0 licence: permissive ones, plus the font and data
 * licences of what the NOTICE lists. A copyleft or unknown licence on a shipped package needs a person's decision,
 * not a silent install.
 */
export const ALLOWED_LICENCES = new Set([
  'MIT',
  'MIT-0',
  'ISC',
  'Apache-2.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  '0BSD',
  'BlueOak-1.0.0',
  'Unlicense',
  'Zlib',
  'Python-2.0',
  'CC0-1.0',
  'OFL-1.1',
  'CC-BY-4.0',
]);

/**
 * Whether an SPDX expression allows shipping: one allowed side of an OR is enough, every part of an AND must be.
 * npm's free-text forms ('SEE LICENSE IN …', 'UNLICENSED', none) are not allowed on their own.
 */
export function licenceAllowed(expression) {
  if (typeof expression !== 'string' || !expression.trim()) return false;
  const tokens = expression.match(/\(|\)|[^\s()]+/g) ?? [];
  let i = 0;
  const primary = () => {
    const t = tokens[i++];
    if (t === '(') {
      const v = or();
      if (tokens[i++] !== ')') throw new Error('unbalanced');
      return v;
    }
    if (t === 'SEE' || t === 'LICENSE' || t === 'IN') return false;
    return ALLOWED_LICENCES.has(t?.replace(/\+$/, '') ?? '');
  };
  const and = () => {
    let v = primary();
    while (tokens[i] === 'AND') {
      i++;
      v = primary() && v;
    }
    return v;
  };
  const or = () => {
    let v = and();
    while (tokens[i] === 'OR') {
      i++;
      v = and() || v;
    }
    return v;
  };
  try {
    // 'MIT OR SEE LICENSE IN FILE' is an npm-ism: the SPDX side decides, the rest is read as one refused term.
    const normal = expression.replace(/SEE LICENSE IN \S+/g, 'SEE');
    tokens.splice(0, tokens.length, ...(normal.match(/\(|\)|[^\s()]+/g) ?? []));
    const v = or();
    return i === tokens.length && v;
  } catch {
    return false;
  }
}

/** The shipped (non-dev) packages of a package-lock v3 whose licence is not allowed. */
export function refusedLicences(lock) {
  return Object.entries(lock.packages ?? {})
    .filter(([where, p]) => where && !p.dev && !licenceAllowed(p.license))
    .map(([where, p]) => ({ where, version: p.version, license: p.license ?? '(none)' }));
}
