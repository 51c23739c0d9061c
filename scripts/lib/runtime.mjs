import { existsSync } from 'node:fs';
import path from 'node:path';

/** The Node.js major version the product is built and tested on (package.json's engines says the same). */
export const RUNTIME_MAJOR = 24;

/**
 * The Node.js the server runs on: the project's own Node 24 LTS (the npm registry's `node` package, installed with
 * the other dependencies) once it is there, so that a machine whose Node is older only needs it to run npm. npm
 * scripts find it first on their PATH; a process started from a script that began on the machine's Node uses this.
 * Without it, the machine's Node is used, and if that is older, it is said loudly rather than left to surface as
 * an odd failure later.
 */
export function runtimeNode() {
  const own = path.resolve('node_modules/.bin/node');
  if (existsSync(own)) return own;
  warnIfOldRuntime(process.versions.node, (line) => console.error(line));
  return process.execPath;
}

/** Prints a boxed warning when `version` is older than the runtime; returns whether it did. */
export function warnIfOldRuntime(version, print) {
  const major = Number(version.split('.')[0]);
  if (major >= RUNTIME_MAJOR) return false;
  const lines = [
    `WARNING: starting on Node.js ${version}, not the Node.js ${RUNTIME_MAJOR} this product is built and tested on.`,
    `The project's own Node ${RUNTIME_MAJOR} (node_modules/.bin/node) is missing: run \`npm install\` again.`,
    'Until then some features may fail in ways the tests never saw.',
  ];
  const width = Math.max(...lines.map((l) => l.length));
  print(`┏${'━'.repeat(width + 2)}┓`);
  for (const l of lines) print(`┃ ${l.padEnd(width)} ┃`);
  print(`┗${'━'.repeat(width + 2)}┛`);
  return true;
}
