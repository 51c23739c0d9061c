import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Runs the admin CLI against a running e2e server's data folder (the CLI hands it to the server over loopback). */
function adminCli(serverName: string, port: number, args: string[]): string {
  return execFileSync('npx', ['tsx', 'server/src/admin/cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: path.resolve('.tmp/e2e', serverName), PUBLIC_URL: `http://localhost:${port}` },
    encoding: 'utf8',
  });
}

/** Answers the signup link (the command's last line). */
export function createOrganizationWithCli(serverName: string, port: number, name: string, adminEmail: string): string {
  return adminCli(serverName, port, ['create-organization', '--name', name, '--admin-email', adminEmail]).trim().split('\n').at(-1)!;
}

export function grantServerAdminWithCli(serverName: string, port: number, email: string): void {
  adminCli(serverName, port, ['grant-server-admin', '--email', email]);
}

let n = 0;
export const uniqueEmail = (prefix: string) => `${prefix}.${Date.now().toString(36)}.${++n}@clinic.test`;

export function publishAnnouncementWithCli(serverName: string, port: number, language: string, title: string, body: string): void {
  adminCli(serverName, port, ['publish-announcement', '--language', language, '--title', title, '--body', body]);
}
