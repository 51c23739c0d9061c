import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A server this test starts, stops and starts again itself (the shared ones of playwright.config.ts must stay
 * up). `fresh` empties its data folder first; a restart keeps it.
 */
export class OwnServer {
  private child?: ChildProcess;
  constructor(
    readonly name: string,
    readonly port: number,
    /** KEY=VALUE settings for this server. */
    readonly settings: string[] = [],
  ) {}

  get url() {
    return `http://localhost:${this.port}`;
  }

  async start({ fresh }: { fresh: boolean }): Promise<void> {
    const args = ['scripts/e2e-server.mjs', this.name, String(this.port), ...this.settings];
    this.child = spawn(process.execPath, args, { stdio: 'ignore', env: { ...process.env, E2E_KEEP_DATA: fresh ? '' : '1' } });
    for (let i = 0; i < 120; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${this.port}/healthz`)).ok) return;
      } catch {
        // not yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`server ${this.name} did not start`);
  }

  /** A graceful stop (SIGTERM), as a deployment or a restart does it. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}
