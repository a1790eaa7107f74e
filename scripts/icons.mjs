#!/usr/bin/env node
// Draws the app's icons into public/icons/ (committed; run again only to
// change them): the favicon's ring, larger, on a tile.
//   vramfit.svg              any size, rounded tile
//   vramfit-192.png, -512    the same, rendered by headless Chromium
//   vramfit-maskable-512.png full-bleed tile, the ring inside the central
//                            circle of 40 % radius that every mask keeps
// Usage: node scripts/icons.mjs   (needs playwright-core and Chromium)
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { launchBrowser } from '../tests/e2e/helpers.mjs';

const OUT = resolve(import.meta.dirname, '..', 'public', 'icons');

// The favicon's geometry (public/favicon.svg) on a 512 grid: ring radius
// 160, stroke 56 (outer radius 188 < 204.8, the maskable safe zone), and
// its arc of 108° clockwise from the top.
const C = 256;
const R = 160;
const ARC = (108 * Math.PI) / 180;
const end = [C + R * Math.sin(ARC), C - R * Math.cos(ARC)].map((v) => v.toFixed(2));

function svg({ rounded }) {
  const tile = rounded
    ? '<rect width="512" height="512" rx="112" fill="#ffffff"/>'
    : '<rect width="512" height="512" fill="#f7f8fa"/>';
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">',
    tile,
    `<circle cx="${C}" cy="${C}" r="${R}" fill="none" stroke="#d8dee9" stroke-width="56"/>`,
    `<path d="M${C} ${C - R}A${R} ${R} 0 0 1 ${end[0]} ${end[1]}" fill="none" stroke="#2f6fdf"`,
    ' stroke-width="56" stroke-linecap="round"/>',
    '</svg>',
    '',
  ].join('\n');
}

async function png(browser, source, size, file) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const img = `data:image/svg+xml;base64,${Buffer.from(source).toString('base64')}`;
  await page.setContent(
    `<style>html,body{margin:0;background:transparent}</style><img src="${img}" width="${size}" height="${size}">`,
  );
  await page.locator('img').evaluate((i) => i.decode());
  await page.screenshot({ path: join(OUT, file), omitBackground: true });
  await page.close();
}

const any = svg({ rounded: true });
await writeFile(join(OUT, 'vramfit.svg'), any);
const browser = await launchBrowser();
await png(browser, any, 192, 'vramfit-192.png');
await png(browser, any, 512, 'vramfit-512.png');
await png(browser, svg({ rounded: false }), 512, 'vramfit-maskable-512.png');
await browser.close();
console.log(`icons written to ${OUT}`);
