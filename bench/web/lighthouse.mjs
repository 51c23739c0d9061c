#!/usr/bin/env node
/**
 * Lighthouse (mobile preset: a mid-range phone, simulated slow 4G and 4× CPU throttling) on the sign-in screen,
 * home and a consultation, served by the real server from the production build, in Debian's Chromium. Prints the
 * performance, accessibility and best-practices scores, and whether Chromium finds the app installable (the PWA
 * category left Lighthouse in version 12; Chromium's own installability check is what it used).
 *
 * Lighthouse is installed on first use into .tmp/lighthouse (screens-server.mjs).
 * Usage: npx vite build && node bench/web/lighthouse.mjs   (LIGHTHOUSE_RUNS=3 for the spread of three runs;
 * LIGHTHOUSE_SCREENS=home,consultation for some screens only)
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { coldContext, CHROMIUM, loadTools, startScreensServer, toolDir } from './screens-server.mjs';

const PORT = 21795;
const { lighthouse, chromeLauncher, puppeteer } = await loadTools();
const { origin: ORIGIN, session, screens, stop } = await startScreensServer('lighthouse', PORT);

const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
try {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 1);
  const figures = new Map();
  for (let run = 0; run < RUNS; run++)
    for (const [name, route, signedIn] of screens.filter(
      ([name]) => !process.env.LIGHTHOUSE_SCREENS || process.env.LIGHTHOUSE_SCREENS.split(',').includes(name),
    )) {
      // A browser profile of its own for each screen (no service worker, no cache), opened on a route that loads
      // none of the app, only to put the session in its storage: the screen itself is then loaded cold.
      const { context, page } = await coldContext(browser, ORIGIN, signedIn ? session : null);
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
      const tbt = Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0);
      const seen = figures.get(name) ?? { performance: [], accessibility: [], practices: [], lcp: [], tbt: [], kb: [] };
      seen.performance.push(score('performance'));
      seen.accessibility.push(score('accessibility'));
      seen.practices.push(score('best-practices'));
      seen.lcp.push(`${lcp} s`);
      seen.tbt.push(`${tbt} ms`);
      seen.kb.push(`${kb} KB`);
      figures.set(name, seen);
      // A screen that failed to draw scores high on its boot picture alone: say which text was the largest.
      const largest = lhr.audits['lcp-breakdown-insight']?.details?.items?.find((item) => item.type === 'node')?.nodeLabel ?? '?';
      console.log(`${name}: largest text "${String(largest).slice(0, 60)}"`);
      const below = Object.values(lhr.audits).filter(
        (a) => a.score !== null && a.score < 0.9 && (a.scoreDisplayMode === 'binary' || a.scoreDisplayMode === 'numeric'),
      );
      if (below.length) console.log(`${name}: below the mark: ${below.map((a) => `${a.id} (${a.displayValue ?? a.score})`).join(', ')}`);
      // The whole report, to read what the score is made of (open it in the Lighthouse viewer or read the JSON).
      writeFileSync(path.join(toolDir, `report-${name}.json`), JSON.stringify(lhr));
      await context.close();
    }
  console.log('| screen | performance | accessibility | best practices | LCP | total blocking time | bytes on the wire |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, f] of figures)
    console.log(
      `| ${name} | ${f.performance.join(' / ')} | ${f.accessibility.join(' / ')} | ${f.practices.join(' / ')} | ${f.lcp.join(' / ')} | ${f.tbt.join(' / ')} | ${f.kb.join(' / ')} |`,
    );
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
