#!/usr/bin/env node
/**
 * The shell's initial JavaScript: the entry script of dist/index.html plus every chunk it imports statically
 * (what the browser must fetch before the first screen), gzipped. Fails above the budget.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const INITIAL_JS_BUDGET_KB = 250;

export function initialJavaScript(dist = 'dist') {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/<script[^>]+type="module"[^>]+src="\/([^"]+)"/g)].map((m) => m[1]);
  const seen = new Set();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(path.join(dist, file), 'utf8');
    // Static imports only: `import … from "./x.js"` and bare `import "./x.js"`; dynamic import() is on demand.
    for (const m of code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g)) {
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
  if (gzipKb > INITIAL_JS_BUDGET_KB) {
    console.error(`Over budget by ${(gzipKb - INITIAL_JS_BUDGET_KB).toFixed(1)} KB`);
    process.exit(1);
  }
}
