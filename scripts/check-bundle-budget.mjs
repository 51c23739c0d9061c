#!/usr/bin/env node
/**
 * The shell's initial JavaScript: the entry script of dist/index.html plus every chunk it imports statically
 * (what the browser must fetch before the first screen), gzipped. Fails above the budget, and when a chunk the
 * service worker precaches imports one of assets/on-demand/ statically: offline, that screen would not open.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const INITIAL_JS_BUDGET_KB = 200;
/**
 * The consultation screen's own code, fetched when a consultation opens (beyond what the shell already has): Dexie,
 * react-markdown and Radix's dialog (which the sign-in screen no longer carries) are most of it.
 */
export const CONSULTATION_ROUTE_BUDGET_KB = 115;

export function initialJavaScript(dist = 'dist') {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/<script[^>]+type="module"[^>]+src="\/([^"]+)"/g)].map((m) => m[1]);
  return staticClosure(dist, entries);
}

/** The consultation route's chunk and its static imports, minus the files the first load already fetched. */
export function consultationRouteJavaScript(dist = 'dist') {
  const initial = new Set(initialJavaScript(dist).files);
  const chunk = readdirSync(path.join(dist, 'assets')).find((f) => /^ConsultationScreen-.*\.js$/.test(f));
  if (!chunk) throw new Error('no ConsultationScreen chunk: is the consultation screen still loaded on demand?');
  return staticClosure(dist, [`assets/${chunk}`], initial);
}

const STATIC_IMPORT = /(?:^|[;\n}])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g;

/** Precached chunks (everything in assets/ but on-demand/) that import an on-demand chunk statically. */
export function shellImportsOfOnDemand(dist = 'dist') {
  const found = [];
  for (const file of readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'))) {
    for (const m of readFileSync(path.join(dist, 'assets', file), 'utf8').matchAll(STATIC_IMPORT)) {
      if (m[1].startsWith('on-demand/')) found.push(`${file} → ${m[1]}`);
    }
  }
  return found;
}

function staticClosure(dist, entries, exclude = new Set()) {
  const seen = new Set();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.shift();
    if (seen.has(file) || exclude.has(file)) continue;
    seen.add(file);
    const code = readFileSync(path.join(dist, file), 'utf8');
    // Static imports only: `import … from "./x.js"` and bare `import "./x.js"`; dynamic import() is on demand.
    for (const m of code.matchAll(STATIC_IMPORT)) {
      queue.push(path.posix.join(path.posix.dirname(file), m[1]));
    }
  }
  let raw = 0;
  let gz = 0;
  for (const file of seen) {
    const buf = readFileSync(path.join(dist, file));
    raw += buf.length;
    gz += gzipSync(buf, { level: 9 }).length;
  }
  return { files: [...seen], rawKb: raw / 1024, gzipKb: gz / 1024 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { files, rawKb, gzipKb } = initialJavaScript();
  console.log(`Initial JavaScript: ${files.length} file(s), ${rawKb.toFixed(1)} KB raw, ${gzipKb.toFixed(1)} KB gzipped (budget ${INITIAL_JS_BUDGET_KB} KB)`);
  const route = consultationRouteJavaScript();
  console.log(
    `Consultation route, on demand: ${route.files.length} file(s), ${route.rawKb.toFixed(1)} KB raw, ${route.gzipKb.toFixed(1)} KB gzipped (budget ${CONSULTATION_ROUTE_BUDGET_KB} KB)`,
  );
  const offlineGaps = shellImportsOfOnDemand();
  console.log(`Precached chunks importing on-demand code statically: ${offlineGaps.length ? offlineGaps.join(', ') : 'none'}`);
  if (gzipKb > INITIAL_JS_BUDGET_KB || route.gzipKb > CONSULTATION_ROUTE_BUDGET_KB || offlineGaps.length) {
    console.error(offlineGaps.length ? 'A precached screen depends on on-demand code' : 'Over budget');
    process.exit(1);
  }
}
