import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The Node.js the server runs on: the project's own Node 24 LTS (the npm registry's `node` package, installed with
 * the other dependencies) once it is there, so that a machine whose Node is older only needs it to run npm. npm
 * scripts find it first on their PATH; a process started from a script that began on the machine's Node uses this.
 */
export function runtimeNode() {
  const own = path.resolve('node_modules/.bin/node');
  return existsSync(own) ? own : process.execPath;
}
