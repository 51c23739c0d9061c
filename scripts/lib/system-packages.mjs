/**
 * Installs Debian packages the product or its tests need, the project's own way: through apt-get when this
 * runs as root or with password-less sudo; otherwise it prints the one apt-get line to run and carries on.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** @typedef {{ pkg: string, present: () => boolean }} SystemPackage */

// biome-ignore lint/suspicious/noTemplateCurlyInString: ${Status} is dpkg-query's own format field, not a JavaScript placeholder.
export const dpkgInstalled = (pkg) => spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout?.includes('install ok installed');

/** @type {Record<string, SystemPackage>} */
export const PACKAGES = {
  chromium: { pkg: 'chromium', present: () => existsSync('/usr/bin/chromium') },
  postgresql: { pkg: 'postgresql', present: () => findPostgresBin('initdb') !== undefined },
  fonts: { pkg: 'fonts-dejavu-core', present: () => dpkgInstalled('fonts-dejavu-core') || existsSync('/usr/share/fonts/truetype/dejavu') },
  ffmpeg: { pkg: 'ffmpeg', present: () => existsSync('/usr/bin/ffmpeg') },
  pocketsphinx: { pkg: 'pocketsphinx', present: () => existsSync('/usr/bin/pocketsphinx_continuous') },
  pocketsphinxModel: { pkg: 'pocketsphinx-en-us', present: () => existsSync('/usr/share/pocketsphinx/model/en-us/en-us') },
  // The long-lived speech processes (server/speech/decoder-process.py) drive pocketsphinx through its Python binding.
  pythonPocketsphinx: { pkg: 'python3-pocketsphinx', present: () => existsSync('/usr/lib/python3/dist-packages/pocketsphinx/__init__.py') },
  pocketsphinxTestdata: { pkg: 'pocketsphinx-testdata', present: () => existsSync('/usr/share/pocketsphinx/test/data/goforward.raw') },
  espeak: { pkg: 'espeak-ng', present: () => existsSync('/usr/bin/espeak-ng') },
  irstlm: { pkg: 'irstlm', present: () => existsSync('/usr/lib/irstlm/bin/build-lm.sh') },
  sphinxbaseUtils: { pkg: 'sphinxbase-utils', present: () => existsSync('/usr/bin/sphinx_lm_convert') },
  // Scanned patient records: pages rendered by poppler, read by tesseract in the four languages of the app.
  poppler: { pkg: 'poppler-utils', present: () => existsSync('/usr/bin/pdftoppm') },
  tesseract: { pkg: 'tesseract-ocr', present: () => existsSync('/usr/bin/tesseract') },
  tesseractPor: { pkg: 'tesseract-ocr-por', present: () => tessdata('por') },
  tesseractDeu: { pkg: 'tesseract-ocr-deu', present: () => tessdata('deu') },
  tesseractSpa: { pkg: 'tesseract-ocr-spa', present: () => tessdata('spa') },
};

/**
 * The container test (scripts/container-test.mjs): podman runs the images as root, with runc (crun refuses the
 * cgroup v1/v2 hybrid some kernels boot with), netavark and aardvark-dns for the compose network (which needs
 * iptables) and its names; mmdebstrap makes the Debian base image from Debian's packages; Debian's docker-compose
 * drives podman through its Docker-compatible socket.
 */
export const CONTAINER_PACKAGES = [
  { pkg: 'podman', present: () => existsSync('/usr/bin/podman') },
  { pkg: 'runc', present: () => existsSync('/usr/sbin/runc') || existsSync('/usr/bin/runc') },
  { pkg: 'netavark', present: () => existsSync('/usr/lib/podman/netavark') },
  { pkg: 'aardvark-dns', present: () => existsSync('/usr/lib/podman/aardvark-dns') },
  { pkg: 'iptables', present: () => existsSync('/usr/sbin/iptables') },
  { pkg: 'mmdebstrap', present: () => existsSync('/usr/bin/mmdebstrap') },
  { pkg: 'docker-compose', present: () => existsSync('/usr/bin/docker-compose') },
];

function tessdata(lang) {
  return ['4.00', '5'].some((v) => existsSync(`/usr/share/tesseract-ocr/${v}/tessdata/${lang}.traineddata`));
}

/** Reading scanned PDFs (research spaces). */
export const OCR_PACKAGES = [PACKAGES.poppler, PACKAGES.tesseract, PACKAGES.tesseractPor, PACKAGES.tesseractDeu, PACKAGES.tesseractSpa];

/** What the server needs at run time: the local speech engine. */
export const RUNTIME_PACKAGES = [
  PACKAGES.ffmpeg,
  PACKAGES.pocketsphinx,
  PACKAGES.pocketsphinxModel,
  PACKAGES.pythonPocketsphinx,
  PACKAGES.irstlm,
  PACKAGES.sphinxbaseUtils,
];

export function findPostgresBin(name) {
  for (const version of ['17', '16', '15', '14', '13']) {
    const p = `/usr/lib/postgresql/${version}/bin/${name}`;
    if (existsSync(p)) return p;
  }
  return undefined;
}

function canSudo() {
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
}

/**
 * @param {SystemPackage[]} wanted
 * @returns {boolean} true when everything wanted is present afterwards
 */
export function ensureSystemPackages(wanted, purpose) {
  const missing = wanted.filter((p) => !p.present());
  if (missing.length === 0) return true;
  const names = missing.map((p) => p.pkg);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const prefix = isRoot ? [] : canSudo() ? ['sudo', '-n'] : undefined;
  if (!prefix) {
    console.warn(`\n${purpose} needs system packages that are missing. Install them with:\n  sudo apt-get install -y ${names.join(' ')}\n`);
    return false;
  }
  console.log(`Installing system packages for ${purpose}: ${names.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) => {
    const [cmd, ...rest] = [...prefix, ...args];
    execFileSync(cmd, rest, { stdio: 'inherit', env });
  };
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...names]);
  return missing.every((p) => p.present());
}
