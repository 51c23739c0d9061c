#!/usr/bin/env node
/**
 * The container test: builds the Dockerfile and brings compose.yaml up on this machine, then checks the app
 * through it and takes everything down again. Run by `npm test`; alone: node scripts/container-test.mjs.
 *
 * What it runs on is what a fresh Debian machine can install from Debian's packages: podman as the engine (as
 * root), Debian's docker-compose driving it through podman's Docker-compatible socket, and, since no image registry
 * may be reachable, a Debian base image made here by mmdebstrap and kept under ~/.cache. The images a registry
 * would give (PostgreSQL, the S3 store) are replaced by stand-ins: tests/container/compose.test.yaml says which
 * and why.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import path from 'node:path';
import { CONTAINER_PACKAGES, ensureSystemPackages } from './lib/system-packages.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const WORK = path.join(ROOT, '.tmp/container');
const CACHE = path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'consultation-notes');
const BASE_TAR = path.join(CACHE, 'debian-bookworm-minbase.tar');
/** The base is made again after a week, so the images pick up Debian's security updates. */
const BASE_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
const BASE_IMAGE = 'localhost/consultation-notes-base:bookworm';
const APP_IMAGE = 'localhost/consultation-notes:test';
const S3_IMAGE = 'localhost/consultation-notes-deps:test';
const POSTGRES_IMAGE = 'localhost/consultation-notes-postgres:test';
const PROJECT = 'cn-container-test';
const MIRROR = process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
const SECURITY_MIRROR = process.env.DEBIAN_SECURITY_MIRROR ?? 'http://deb.debian.org/debian-security';

const elapsed = (t0) => `${((Date.now() - t0) / 1000).toFixed(0)} s`;

/** Podman reads its settings from here (see engineSettings), for every command of this test. */
const env = { ...process.env, CONTAINERS_CONF: path.join(WORK, 'containers.conf') };
const sh = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: 'inherit', env, cwd: ROOT, ...opts });
const out = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }).trim();

function limit(name) {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(name));
  const hard = line?.trim().split(/\s{2,}/)[2];
  return hard && hard !== 'unlimited' ? Number(hard) : undefined;
}

/**
 * Podman's own defaults ask for more than a confined machine (a sandbox or a VM with a lowered limit) lets a
 * container have: the open-files and process limits are those this process has, capped by the kernel's pid_max;
 * runc rather than crun, which refuses a kernel booted with both cgroup versions. On an ordinary machine these
 * are the same settings in effect.
 */
function engineSettings() {
  const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
  const nofile = Math.min(limit('Max open files') ?? 1048576, 1048576);
  const nproc = Math.min(limit('Max processes') ?? pidMax, pidMax);
  mkdirSync(WORK, { recursive: true });
  writeFileSync(
    env.CONTAINERS_CONF,
    `[containers]\ndefault_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]\n\n[engine]\nruntime = "runc"\n`,
  );
}

/** A Debian 12 base, like the public debian:bookworm-slim, made from Debian's packages and imported into podman. */
function ensureBaseImage() {
  const fresh = existsSync(BASE_TAR) && Date.now() - statSync(BASE_TAR).mtimeMs < BASE_MAX_AGE_MS;
  if (!fresh) {
    const t0 = Date.now();
    console.log('Making the Debian base image with mmdebstrap (once a week; a few minutes)…');
    mkdirSync(CACHE, { recursive: true });
    const partial = `${BASE_TAR}.partial`;
    sh('mmdebstrap', [
      '--variant=minbase',
      '--mode=root',
      '--format=tar',
      '--quiet',
      // What the slim image leaves out too: manuals, documentation (not the licences) and translations.
      '--dpkgopt=path-exclude=/usr/share/man/*',
      '--dpkgopt=path-exclude=/usr/share/doc/*',
      '--dpkgopt=path-include=/usr/share/doc/*/copyright',
      '--dpkgopt=path-exclude=/usr/share/locale/*',
      '--aptopt=Acquire::Retries "3"',
      'bookworm',
      partial,
      `deb ${MIRROR} bookworm main`,
      `deb ${MIRROR} bookworm-updates main`,
      `deb ${SECURITY_MIRROR} bookworm-security main`,
    ]);
    renameSync(partial, BASE_TAR);
    console.log(`  made in ${elapsed(t0)}`);
  }
  // Imported again only when the tarball changed: a new import is a new image, which no cached layer is built on.
  const stampFile = `${BASE_TAR}.imported`;
  const wanted = `${statSync(BASE_TAR).mtimeMs}`;
  const [madeFrom, id] = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim().split(' ') : [];
  const present = id ? spawnSync('podman', ['image', 'inspect', '--format', '{{.Id}}', BASE_IMAGE], { env, encoding: 'utf8' }).stdout?.trim() : undefined;
  if (madeFrom !== wanted || !present || present !== id) {
    sh('podman', ['import', '--quiet', '--change', 'CMD ["bash"]', BASE_TAR, BASE_IMAGE], { stdio: ['ignore', 'ignore', 'inherit'] });
    writeFileSync(stampFile, `${wanted} ${out('podman', ['image', 'inspect', '--format', '{{.Id}}', BASE_IMAGE])}\n`);
  }
}

function buildImages() {
  const t0 = Date.now();
  // The authorities this machine trusts, for the image's npm downloads (the Dockerfile's `ca` secret): where a
  // proxy inspects TLS, its own authority is among them.
  const ca = [process.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt'].find((f) => f && existsSync(f));
  const secret = ca ? ['--secret', `id=ca,src=${ca}`] : [];
  // Docker's format keeps the HEALTHCHECK (the OCI format has no place for it).
  const build = (args) =>
    sh('podman', ['build', '--quiet', '--format', 'docker', ...secret, '--build-arg', `BASE_IMAGE=${BASE_IMAGE}`, ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  build(['--tag', APP_IMAGE, '.']);
  build(['--target', 'deps', '--tag', S3_IMAGE, '.']);
  build(['--tag', POSTGRES_IMAGE, '--file', 'tests/container/postgres.Dockerfile', 'tests/container']);
  console.log(`  images built in ${elapsed(t0)}`);
}

/** Secret files as README.md › Running with containers has a hospital make them; the S3 keys are the stand-in's. */
function writeSecrets() {
  const dir = path.join(WORK, 'secrets');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o700);
  const password = randomBytes(24).toString('hex');
  const files = {
    postgres_password: password,
    database_url: `postgres://notes:${password}@postgres:5432/notes`,
    jwt_secret: randomBytes(48).toString('base64url'),
    encryption_key: randomBytes(32).toString('base64'),
    audit_key: randomBytes(32).toString('base64'),
    s3_access_key_id: 'S3RVER',
    s3_secret_access_key: 'S3RVER',
    // SeaweedFS's identities file, unused by the stand-in but named by compose.yaml.
    's3_config.json': JSON.stringify({
      identities: [{ name: 'app', credentials: [{ accessKey: 'S3RVER', secretKey: 'S3RVER' }], actions: ['Admin', 'Read', 'Write', 'List'] }],
    }),
  };
  for (const [name, content] of Object.entries(files)) {
    // Readable inside the containers, whose users are not root; the folder (700) keeps them from the host's users.
    writeFileSync(path.join(dir, name), `${content}\n`, { mode: 0o644 });
  }
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

/**
 * Podman runs health checks from systemd timers; where systemd does not run (a container, a sandbox), nothing
 * would, and `depends_on: condition: service_healthy` would wait for ever. This runs each container's own check,
 * as the timers would.
 */
function pumpHealthChecks() {
  const timer = setInterval(() => {
    const ids =
      spawnSync('podman', ['ps', '--filter', `label=com.docker.compose.project=${PROJECT}`, '--format', '{{.ID}}'], { env, encoding: 'utf8' })
        .stdout?.split('\n')
        .filter(Boolean) ?? [];
    for (const id of ids) spawn('podman', ['healthcheck', 'run', id], { env, stdio: 'ignore' }).on('error', () => {});
  }, 3000);
  return () => clearInterval(timer);
}

function compose(args, extraEnv, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(
      'docker-compose',
      [
        '--project-name',
        PROJECT,
        '--project-directory',
        WORK,
        '--file',
        path.join(ROOT, 'compose.yaml'),
        '--file',
        path.join(ROOT, 'tests/container/compose.test.yaml'),
        ...args,
      ],
      { env: { ...env, ...extraEnv }, cwd: ROOT, stdio: opts.quiet ? 'ignore' : 'inherit' },
    );
    child.on('exit', (code) => resolve(code === 0));
    child.on('error', () => resolve(false));
  });
}

async function waitFor(what, fn, seconds) {
  let last;
  for (const until = Date.now() + seconds * 1000; Date.now() < until; await new Promise((r) => setTimeout(r, 1000))) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
  }
  throw new Error(`${what}: no answer in ${seconds} s${last ? ` (${last.message})` : ''}`);
}

/** The newest mail's link to `to`, from the outbox the API container writes (no SMTP_URL). */
function mailedLink(to) {
  const files = out('podman', ['exec', `${PROJECT}_api_1`, 'sh', '-c', 'ls -1t /data/outbox'])
    .split('\n')
    .filter(Boolean);
  for (const f of files) {
    const eml = out('podman', ['exec', `${PROJECT}_api_1`, 'cat', `/data/outbox/${f}`]);
    if (!eml.includes(to)) continue;
    const [head = '', ...rest] = eml.split(/\r?\n\r?\n/);
    let body = rest.join('\n\n');
    if (/Content-Transfer-Encoding: base64/i.test(head)) body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    if (/Content-Transfer-Encoding: quoted-printable/i.test(head))
      body = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16)));
    const link = body.match(/https?:\/\/\S+/)?.[0];
    if (link) return link;
  }
  throw new Error(`no mail to ${to} in the API container's outbox`);
}

async function checkApp(base) {
  const health = await waitFor('/healthz', async () => (await fetch(`${base}/healthz`)).ok, 120);
  console.log(`  /healthz answers: ${health}`);
  // As a browser asks for it: the server answers a page only to a request that accepts HTML.
  const page = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
  const html = await page.text();
  if (!page.ok || !html.includes('<div id="root"')) throw new Error(`GET / did not return the app (${page.status})`);
  console.log('  GET / returns the app');

  // An account on PostgreSQL: sign up, confirm the address through the mailed link, sign in.
  const email = `clinician-${Date.now()}@example.org`;
  const password = randomBytes(12).toString('hex');
  const json = { 'content-type': 'application/json' };
  const signup = await fetch(`${base}/v1/signup`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ user: { name: 'Ana Lima', email, password, language: 'en' } }),
  });
  if (signup.status !== 202) throw new Error(`sign-up answered ${signup.status}: ${await signup.text()}`);
  const link = await waitFor('the confirmation mail', () => mailedLink(email), 30);
  const token = new URL(link).pathname.split('/').pop();
  const confirm = await fetch(`${base}/v1/confirm_email/${token}`, { method: 'PATCH' });
  if (!confirm.ok) throw new Error(`confirming the address answered ${confirm.status}: ${await confirm.text()}`);
  const login = await fetch(`${base}/v1/login`, { method: 'POST', headers: json, body: JSON.stringify({ user: { email, password } }) });
  const body = await login.json();
  if (!login.ok || body?.d_user?.email !== email) throw new Error(`sign-in answered ${login.status}: ${JSON.stringify(body)}`);
  console.log('  sign-up, confirmation and sign-in work against PostgreSQL');

  // The worker started on the same database and S3 store (it reported healthy before compose up returned).
  const worker = out('podman', ['inspect', '--format', '{{.State.Status}}', `${PROJECT}_worker_1`]);
  if (worker !== 'running') throw new Error(`the worker is ${worker}`);
  console.log('  the worker runs beside the API');
}

export async function containerTest() {
  const t0 = Date.now();
  if (process.getuid?.() !== 0) {
    console.warn('The container test runs podman as root: run it as root (npm test does on the project machines).');
    return false;
  }
  if (!ensureSystemPackages(CONTAINER_PACKAGES, 'The container test')) return false;
  engineSettings();
  ensureBaseImage();
  buildImages();
  writeSecrets();

  // docker-compose speaks to podman through podman's Docker-compatible socket, started for this test only.
  const socket = path.join(WORK, 'podman.sock');
  rmSync(socket, { force: true });
  const service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], { env, stdio: 'ignore' });
  const stopPump = pumpHealthChecks();
  const port = await freePort();
  const composeEnv = {
    DOCKER_HOST: `unix://${socket}`,
    APP_IMAGE,
    S3_IMAGE,
    POSTGRES_IMAGE,
    HTTP_BIND: '127.0.0.1',
    HTTP_PORT: String(port),
    PUBLIC_URL: `http://localhost:${port}`,
  };
  try {
    await waitFor('podman service', () => existsSync(socket), 30);
    await compose(['down', '--volumes', '--remove-orphans'], composeEnv, { quiet: true });
    const t1 = Date.now();
    if (!(await compose(['up', '--detach', '--no-build'], composeEnv))) throw new Error('docker-compose up failed');
    console.log(`  compose up in ${elapsed(t1)}`);
    await checkApp(`http://127.0.0.1:${port}`);
    return true;
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    await compose(['logs', '--tail', '40'], composeEnv);
    return false;
  } finally {
    await compose(['down', '--volumes', '--remove-orphans', '--timeout', '10'], composeEnv);
    stopPump();
    service.kill('SIGTERM');
    rmSync(path.join(WORK, 'secrets'), { recursive: true, force: true });
    console.log(`  container test: ${elapsed(t0)}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit((await containerTest()) ? 0 : 1);
