import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'cn-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PUBLIC_URL: 'https://notes.clinic.test',
  // The CLI uses the same settings as the server: PostgreSQL when the suite runs against it.
  ...(process.env.TEST_DATABASE_URL ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}),
};

describe('npm run admin -- create-organization', () => {
  it('creates an organization and prints the signup link as its last line', async () => {
    const { stdout } = await run(
      'npx',
      ['tsx', 'server/src/admin/cli.ts', 'create-organization', '--name', 'Clínica do Porto', '--admin-email', 'Admin@Porto.test'],
      {
        cwd: root,
        env,
      },
    );
    const last = stdout.trim().split('\n').at(-1)!;
    expect(last).toMatch(/^https:\/\/notes\.clinic\.test\/signup\?ref=\/organization\/invitations\/[0-9a-f]{64}$/);
  }, 60_000);

  it('explains its usage on bad arguments', async () => {
    await expect(run('npx', ['tsx', 'server/src/admin/cli.ts', 'create-organization', '--name', 'X'], { cwd: root, env })).rejects.toMatchObject({
      stderr: expect.stringContaining('Usage'),
    });
  }, 60_000);
});
