#!/usr/bin/env node
/** Fails when a package the product ships (not a test or build tool) is under a licence not on the allowed list. */
import { readFileSync } from 'node:fs';
import { refusedLicences } from './lib/licences.mjs';

const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
const refused = refusedLicences(lock);
for (const r of refused) console.error(`✗ ${r.where}@${r.version}: licence ${r.license} is not on the allowed list (scripts/lib/licences.mjs)`);
const shipped = Object.entries(lock.packages ?? {}).filter(([where, p]) => where && !p.dev).length;
console.log(`Licences of the ${shipped} shipped packages: ${refused.length ? `${refused.length} not allowed` : 'all allowed'}.`);
process.exit(refused.length ? 1 : 0);
