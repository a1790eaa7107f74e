// Installing the app: the page links a web app manifest, served with its
// type, complete, with icons that load at the sizes it states; Chromium
// itself reports no reason the app could not be installed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, useServerAndBrowser, waitForWorker } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

test('the manifest is served, complete, and every icon loads at its size', async () => {
  const context = await browser.newContext({ locale: 'es-ES' });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByTestId('total-memory').waitFor();
  const href = await page.locator('link[rel=manifest]').getAttribute('href');
  const url = new URL(href, server.url).href;
  const response = await page.request.get(url);
  assert.equal(response.status(), 200);
  assert.match(response.headers()['content-type'], /^application\/manifest\+json/);
  const manifest = await response.json();
  assert.equal(manifest.short_name, 'vramfit');
  assert.match(manifest.name, /^vramfit/);
  assert.equal(new URL(manifest.start_url, url).href, server.url);
  assert.equal(new URL(manifest.scope, url).href, server.url);
  assert.equal(manifest.display, 'standalone');
  // The colours of style/vramfit.css (--vf-bg, light theme).
  assert.equal(manifest.background_color, '#f7f8fa');
  assert.equal(manifest.theme_color, '#f7f8fa');
  assert.deepEqual(
    await page.locator('meta[name=theme-color]').evaluateAll((ms) => ms.map((m) => [m.media, m.content])),
    [
      ['(prefers-color-scheme: light)', '#f7f8fa'],
      ['(prefers-color-scheme: dark)', '#111418'],
    ],
  );

  // Each icon loads (under the page's policy) at the size it states.
  const purposes = new Set();
  for (const icon of manifest.icons) {
    const src = new URL(icon.src, url).href;
    const answer = await page.request.get(src);
    assert.equal(answer.status(), 200, src);
    assert.equal(answer.headers()['content-type'], icon.type, src);
    const size = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }, src);
    if (icon.sizes !== 'any') assert.equal(size.join('x'), icon.sizes, src);
    purposes.add(icon.purpose ?? 'any');
  }
  const sizes = manifest.icons.map((i) => i.sizes);
  assert.ok(sizes.includes('192x192') && sizes.includes('512x512'), sizes.join());
  assert.deepEqual([...purposes].sort(), ['any', 'maskable']);
  await context.close();
});

test('Chromium parses the manifest without error and finds the app installable', async () => {
  // A profile on disk: Chromium never offers to install from incognito,
  // which every other context of the suite is.
  const profile = await mkdtemp(join(tmpdir(), 'vramfit-profile-'));
  after(() => rm(profile, { recursive: true, force: true }));
  const context = await chromium.launchPersistentContext(profile, { ...CHROMIUM, locale: 'es-ES' });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(server.url);
  await page.getByTestId('total-memory').waitFor();
  await waitForWorker(page);
  const cdp = await context.newCDPSession(page);
  const parsed = await cdp.send('Page.getAppManifest');
  assert.equal(parsed.url, new URL('manifest.webmanifest', server.url).href);
  assert.deepEqual(parsed.errors, []);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors, []);
  await context.close();
});
