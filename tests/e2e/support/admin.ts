import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Runs the admin CLI against a running e2e server's data folder; answers the signup link (its last line). */
export function createOrganizationWithCli(serverName: string, port: number, name: string, adminEmail: string): string {
  const out = execFileSync('npx', ['tsx', 'server/src/admin/cli.ts', 'create-organization', '--name', name, '--admin-email', adminEmail], {
    env: { ...process.env, DATA_DIR: path.resolve('.tmp/e2e', serverName), PUBLIC_URL: `http://localhost:${port}` },
    encoding: 'utf8',
  });
  return out.trim().split('\n').at(-1)!;
}

let n = 0;
export const uniqueEmail = (prefix: string) => `${prefix}.${Date.now().toString(36)}.${++n}@clinic.test`;

/** Support publishes an announcement on a running e2e server (the CLI hands it to the server over loopback). */
export function publishAnnouncementWithCli(serverName: string, port: number, language: string, title: string, body: string): void {
  execFileSync('npx', ['tsx', 'server/src/admin/cli.ts', 'publish-announcement', '--language', language, '--title', title, '--body', body], {
    env: { ...process.env, DATA_DIR: path.resolve('.tmp/e2e', serverName), PUBLIC_URL: `http://localhost:${port}` },
    encoding: 'utf8',
  });
}
