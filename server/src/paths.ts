/**
 * Where the server's own files are (migrations, prompts, the speech model, the engine check's clip), whether the
 * code runs from its sources (server/src, through tsx) or compiled (.build/server/src, in production): both are
 * found from the project's folder, the first one above this file that holds package.json.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function projectRoot(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error('the project folder (with package.json) was not found above the server code');
  }
}

export const PROJECT_ROOT = projectRoot();
export const SERVER_ROOT = path.join(PROJECT_ROOT, 'server');
export const SERVER_SOURCES = path.join(SERVER_ROOT, 'src');
