#!/usr/bin/env node
/**
 * Cold first load of the sign-in screen, home and a consultation in Debian's Chromium with throttling applied (not
 * simulated, as Lighthouse's score is): 4× CPU slowdown and Lighthouse's own "slow 4G" settings for applied
 * throttling (562.5 ms request latency, 1,474.6 kbit/s down, 675 kbit/s up). Each screen opens in a profile of its
 * own (no service worker, no cache). Prints first contentful paint, largest contentful paint (the screen's main
 * text drawn), the main thread's long-task time, and the bytes on the wire, for BENCH_RUNS runs (3 by default).
 * Usage: npx vite build && node bench/web/cold-load.mjs
 */
import { coldContext, CHROMIUM, loadTools, startScreensServer } from './screens-server.mjs';

const PORT = 21797;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const { puppeteer } = await loadTools();
const { origin, session, screens, stop } = await startScreensServer('cold-load', PORT);
const browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless=new', '--disable-gpu'] });
const figures = new Map();
try {
  for (let run = 0; run < RUNS; run++)
    for (const [name, route, signedIn] of screens) {
      const { context, page } = await coldContext(browser, origin, signedIn ? session : null);
      const cdp = await page.createCDPSession();
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 562.5,
        downloadThroughput: (1474.56 * 1024) / 8,
        uploadThroughput: (675 * 1024) / 8,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.evaluateOnNewDocument(() => {
        const seen = { lcp: 0, longTasks: 0 };
        Object.assign(window, { __coldLoad: seen });
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) seen.lcp = entry.startTime;
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) seen.longTasks += entry.duration - 50;
        }).observe({ type: 'longtask', buffered: true });
      });
      await page.goto(`${origin}${route}`, { waitUntil: 'networkidle0', timeout: 120_000 });
      const m = await page.evaluate(() => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
        const nav = performance.getEntriesByType('navigation')[0];
        const bytes = [nav, ...performance.getEntriesByType('resource')].reduce((sum, e) => sum + (e?.transferSize ?? 0), 0);
        const seen = window.__coldLoad;
        return { fcp, lcp: seen.lcp, blocking: seen.longTasks, bytes };
      });
      const f = figures.get(name) ?? [];
      f.push(m);
      figures.set(name, f);
      await context.close();
    }
  const list = (xs, fmt) => xs.map(fmt).join(' / ');
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  console.log(`\nCold first load, 4× CPU, applied slow 4G (${RUNS} runs)`);
  console.log('| screen | first contentful paint | largest contentful paint | long tasks beyond 50 ms | bytes on the wire |');
  console.log('|---|---|---|---|---|');
  for (const [name, f] of figures)
    console.log(
      `| ${name} | ${list(f, (m) => s(m.fcp))} | ${list(f, (m) => s(m.lcp))} | ${list(f, (m) => `${Math.round(m.blocking)} ms`)} | ${list(f, (m) => `${Math.round(m.bytes / 1024)} KB`)} |`,
    );
} finally {
  await browser.close();
  stop();
}
