/**
 * What the browser benchmarks share: Lighthouse, Puppeteer and chrome-launcher installed on first use into
 * .tmp/lighthouse (about 180 MB, pinned here, not a dependency every `npm test` would install for nothing), and the
 * production build served by the real server with a clinician signed up and one finished consultation.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const LIGHTHOUSE = 'lighthouse@13.5.0';
export const toolDir = path.resolve('.tmp/lighthouse');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function loadTools() {
  if (!existsSync(path.join(toolDir, 'node_modules/lighthouse'))) {
    mkdirSync(toolDir, { recursive: true });
    writeFileSync(path.join(toolDir, 'package.json'), '{"private":true}');
    execFileSync('npm', ['install', '--prefix', toolDir, '--no-audit', '--no-fund', LIGHTHOUSE], { stdio: 'inherit' });
  }
  const fromTools = createRequire(path.join(toolDir, 'package.json'));
  const load = async (name) => import(pathToFileURL(fromTools.resolve(name)).href);
  return { lighthouse: (await load('lighthouse')).default, chromeLauncher: await load('chrome-launcher'), puppeteer: (await load('puppeteer-core')).default };
}

async function until(ok, what) {
  for (let i = 0; i < 240; i++) {
    if (await ok().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not happen`);
}

/** The server on `port` with a new clinician (session token and user) and one finished consultation. */
export async function startScreensServer(name, port) {
  const origin = `http://localhost:${port}`;
  if (!existsSync('dist/index.html')) execFileSync('npx', ['vite', 'build'], { stdio: 'inherit' });
  const server = spawn(process.execPath, ['scripts/e2e-server.mjs', name, String(port)], { stdio: 'ignore' });
  const stop = () => server.kill('SIGTERM');
  process.on('exit', stop);
  await until(async () => (await fetch(`${origin}/healthz`)).ok, 'the server start');
  // A clinician, as support creates one: the CLI's signup link, then the signup call the form makes.
  const email = `${name}.${Date.now()}@clinic.test`;
  const link = execFileSync('npx', ['tsx', 'server/src/admin/cli.ts', 'create-organization', '--name', 'Clínica Lighthouse', '--admin-email', email], {
    env: { ...process.env, DATA_DIR: path.resolve(`.tmp/e2e/${name}`), PUBLIC_URL: origin },
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .at(-1);
  const invitation = decodeURIComponent(link).split('/').at(-1);
  const signup = await fetch(`${origin}/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: { name: 'Dra. Luz Farol', email, password: 'clinic-secret', language: 'en' }, invitation_token: invitation }),
  });
  if (!signup.ok) throw new Error(`signup: ${signup.status} ${await signup.text()}`);
  const token = (signup.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
  const { d_user } = await signup.json();
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const started = await fetch(`${origin}/v1/consultation_sessions`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ consultation_type_id: 'general_consultation' }),
  });
  const consultationId = (await started.json()).consultation_session.id;
  await fetch(`${origin}/v1/consultation_sessions/${consultationId}/transcription`, {
    method: 'PUT',
    headers: auth,
    body: JSON.stringify({ transcription: 'Dry cough for three days, no fever. Lungs clear.' }),
  });
  await fetch(`${origin}/v1/consultation_sessions/${consultationId}/finish`, { method: 'PUT', headers: auth });
  return {
    origin,
    session: { token, user: d_user },
    screens: [
      ['login', '/login', false],
      ['home', '/', true],
      ['consultation', `/consultation/${consultationId}`, true],
    ],
    stop,
  };
}

/** A browser profile of its own, opened on a route that loads none of the app, with the session put in storage. */
export async function coldContext(browser, origin, session) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.goto(`${origin}/healthz`);
  await page.evaluate((s) => {
    if (!s) return;
    localStorage.setItem('token', s.token);
    localStorage.setItem('user', JSON.stringify(s.user));
  }, session ?? null);
  return { context, page };
}
