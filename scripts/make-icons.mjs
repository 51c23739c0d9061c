// Renders public/icons/icon.svg to the PNG sizes of the web manifest and a favicon.ico (run after editing the SVG).
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';

const svg = readFileSync('public/icons/icon.svg', 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless'] });
const page = await browser.newPage();
async function render(size, padding = 0) {
  await page.setViewportSize({ width: size, height: size });
  const inner = size - padding * 2;
  await page.setContent(
    `<body style="margin:0;background:${padding ? '#0f5c6e' : 'transparent'}"><div style="padding:${padding}px">${svg.replace('<svg ', `<svg width="${inner}" height="${inner}" `)}</div></body>`,
  );
  return page.screenshot({ omitBackground: !padding, clip: { x: 0, y: 0, width: size, height: size } });
}
writeFileSync('public/icons/icon-192.png', await render(192));
writeFileSync('public/icons/icon-512.png', await render(512));
writeFileSync('public/icons/icon-maskable-512.png', await render(512, 56));
const png32 = await render(32);
// An ICO file may hold a PNG image as is: 6-byte header, one 16-byte directory entry, then the PNG.
const header = Buffer.alloc(22);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(1, 4);
header.writeUInt8(32, 6);
header.writeUInt8(32, 7);
header.writeUInt16LE(1, 10);
header.writeUInt16LE(32, 12);
header.writeUInt32LE(png32.length, 14);
header.writeUInt32LE(22, 18);
writeFileSync('public/favicon.ico', Buffer.concat([header, png32]));
await browser.close();
