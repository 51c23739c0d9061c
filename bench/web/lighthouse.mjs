#!/usr/bin/env node
/**
 * Lighthouse (mobile preset: a mid-range phone, simulated slow 4G and 4× CPU throttling) on the sign-in screen,
 * home and a consultation, served by the real server from the production build, in Debian's Chromium. Prints the
 * performance, accessibility and best-practices scores, and whether Chromium finds the app installable (the PWA
 * category left Lighthouse in version 12; Chromium's own installability check is what it used).
 *
 * Lighthouse (about 180 MB with its dependencies) is installed on first use into .tmp/lighthouse, pinned here,
 * rather than made a dependency every `npm test` would install for nothing.
 * Usage: npx vite build && node bench/web/lighthouse.mjs   (LIGHTHOUSE_RUNS=3 for the spread of three runs)
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const LIGHTHOUSE = 'lighthouse@13.5.0';
const PORT = 21795;
const ORIGIN = `http://localhost:${PORT}`;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const toolDir = path.resolve('.tmp/lighthouse');
if (!existsSync(path.join(toolDir, 'node_modules/lighthouse'))) {
  mkdirSync(toolDir, { recursive: true });
  writeFileSync(path.join(toolDir, 'package.json'), '{"private":true}');
  execFileSync('npm', ['install', '--prefix', toolDir, '--no-audit', '--no-fund', LIGHTHOUSE], { stdio: 'inherit' });
}
const fromTools = createRequire(path.join(toolDir, 'package.json'));
const load = async (name) => import(pathToFileURL(fromTools.resolve(name)).href);
const lighthouse = (await load('lighthouse')).default;
const chromeLauncher = await load('chrome-launcher');
const puppeteer = (await load('puppeteer-core')).default;

if (!existsSync('dist/index.html')) execFileSync('npx', ['vite', 'build'], { stdio: 'inherit' });
const server = spawn(process.execPath, ['scripts/e2e-server.mjs', 'lighthouse', String(PORT)], { stdio: 'ignore' });
const stop = () => server.kill('SIGTERM');
process.on('exit', stop);

async function until(ok, what) {
  for (let i = 0; i < 240; i++) {
    if (await ok().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not happen`);
}
await until(async () => (await fetch(`${ORIGIN}/healthz`)).ok, 'the server start');

// A clinician, as support creates one: the CLI's signup link, then the signup call the form makes.
const email = `lighthouse.${Date.now()}@clinic.test`;
const link = execFileSync('npx', ['tsx', 'server/src/admin/cli.ts', 'create-organization', '--name', 'Clínica Lighthouse', '--admin-email', email], {
  env: { ...process.env, DATA_DIR: path.resolve('.tmp/e2e/lighthouse'), PUBLIC_URL: ORIGIN },
  encoding: 'utf8',
})
  .trim()
  .split('\n')
  .at(-1);
const invitation = decodeURIComponent(link).split('/').at(-1);
const signup = await fetch(`${ORIGIN}/v1/signup`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ user: { name: 'Dra. Luz Farol', email, password: 'clinic-secret', language: 'en' }, invitation_token: invitation }),
});
if (!signup.ok) throw new Error(`signup: ${signup.status} ${await signup.text()}`);
const token = (signup.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
const { d_user } = await signup.json();
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const started = await fetch(`${ORIGIN}/v1/consultation_sessions`, { method: 'POST', headers: auth, body: JSON.stringify({ consultation_type_id: 'general_consultation' }) });
const consultationId = (await started.json()).consultation_session.id;
await fetch(`${ORIGIN}/v1/consultation_sessions/${consultationId}/transcription`, { method: 'PUT', headers: auth, body: JSON.stringify({ transcription: 'Dry cough for three days, no fever. Lungs clear.' }) });
await fetch(`${ORIGIN}/v1/consultation_sessions/${consultationId}/finish`, { method: 'PUT', headers: auth });

const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
try {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 1);
  const figures = new Map();
  for (let run = 0; run < RUNS; run++)
  for (const [name, route, signedIn] of [
    ['login', '/login', false],
    ['home', '/', true],
    ['consultation', `/consultation/${consultationId}`, true],
  ]) {
    // A browser profile of its own for each screen (no service worker, no cache), opened on a route that loads
    // none of the app, only to put the session in its storage: the screen itself is then loaded cold.
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/healthz`);
    await page.evaluate(
      (session) => {
        if (!session) return;
        localStorage.setItem('token', session.token);
        localStorage.setItem('user', JSON.stringify(session.user));
      },
      signedIn ? { token, user: d_user } : null,
    );
    const result = await lighthouse(
      `${ORIGIN}${route}`,
      { port: chrome.port, output: 'json', logLevel: 'error', disableStorageReset: true, onlyCategories: ['performance', 'accessibility', 'best-practices'] },
      undefined,
      page,
    );
    const lhr = result.lhr;
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const kb = Math.round((lhr.audits['total-byte-weight']?.numericValue ?? 0) / 1024);
    const lcp = ((lhr.audits['largest-contentful-paint']?.numericValue ?? 0) / 1000).toFixed(1);
    const seen = figures.get(name) ?? { performance: [], accessibility: [], practices: [], lcp: [], kb: [] };
    seen.performance.push(score('performance'));
    seen.accessibility.push(score('accessibility'));
    seen.practices.push(score('best-practices'));
    seen.lcp.push(`${lcp} s`);
    seen.kb.push(`${kb} KB`);
    figures.set(name, seen);
    const below = Object.values(lhr.audits).filter((a) => a.score !== null && a.score < 0.9 && (a.scoreDisplayMode === 'binary' || a.scoreDisplayMode === 'numeric'));
    if (below.length) console.log(`${name}: below the mark: ${below.map((a) => `${a.id} (${a.displayValue ?? a.score})`).join(', ')}`);
    // The whole report, to read what the score is made of (open it in the Lighthouse viewer or read the JSON).
    writeFileSync(path.join(toolDir, `report-${name}.json`), JSON.stringify(lhr));
    await context.close();
  }
  console.log('| screen | performance | accessibility | best practices | LCP | bytes on the wire |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, f] of figures) console.log(`| ${name} | ${f.performance.join(' / ')} | ${f.accessibility.join(' / ')} | ${f.practices.join(' / ')} | ${f.lcp.join(' / ')} | ${f.kb.join(' / ')} |`);
  // Installable: Chromium's own check, in an ordinary (not private) profile once the service worker runs.
  const page = await browser.newPage();
  await page.goto(`${ORIGIN}/login`);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  const cdp = await page.createCDPSession();
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  console.log(`Installable: ${installabilityErrors.length === 0 ? 'yes' : `no (${installabilityErrors.map((e) => e.errorId).join(', ')})`}`);
  await browser.disconnect();
} finally {
  await chrome.kill();
  stop();
}
