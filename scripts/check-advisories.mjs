#!/usr/bin/env node
/**
 * Fails when an installed package falls in a known advisory. Offline first: the lock file against the advisories
 * recorded in security/known-advisories.json; then the registry's bulk audit if it answers (high and critical
 * advisories on what the product ships fail the run too).
 */
import { readFileSync } from 'node:fs';
import { findKnownAdvisories, registryAudit } from './lib/advisories.mjs';

const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
const known = JSON.parse(readFileSync(new URL('../security/known-advisories.json', import.meta.url), 'utf8'));
let failed = false;

const found = findKnownAdvisories(lock, known);
for (const f of found) {
  console.error(
    `✗ ${f.name}@${f.version} (${f.where}, ${f.ships ? 'shipped' : 'tests and tools only'}): ${f.advisory.id} — ${f.advisory.summary}${f.advisory.fixed ? `; fixed in ${f.advisory.fixed}` : ''}`,
  );
  failed = true;
}
console.log(
  `Recorded advisories (${known.advisories.length}, updated ${known.updated}): ${found.length ? `${found.length} installed package(s) affected` : 'no installed package affected'}.`,
);

const audit = await registryAudit(lock);
if (!audit) {
  console.log("The registry's audit did not answer (offline, or refused here): only the recorded advisories were checked.");
} else {
  const serious = Object.entries(audit).flatMap(([name, list]) =>
    list.filter((a) => a.severity === 'high' || a.severity === 'critical').map((a) => ({ name, ...a })),
  );
  for (const a of serious) console.error(`✗ ${a.name} (shipped): ${a.severity} — ${a.title} ${a.url ?? ''}; affected ${a.vulnerable_versions}`);
  console.log(`Registry audit: ${serious.length} high or critical advisory(ies) on shipped packages.`);
  if (serious.length) failed = true;
}
process.exit(failed ? 1 : 0);
