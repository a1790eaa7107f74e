// Shared helpers for the end-to-end suite: a static server for the release
// build in dist/ and headless Debian Chromium driven by playwright-core.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const DIST = join(ROOT, 'dist');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves dist/ on a free loopback port; resolves to { url, close }.
 * `routes` maps a path prefix (`/hub/`) to a request handler, for fixture
 * servers that must share the page's origin (its Content-Security-Policy
 * allows 'self' and the real Hub only). `root(req)` names the folder to
 * serve for each request (dist/ unless told: a test may switch releases),
 * or `null` for no answer at all (a host that is down).
 */
export async function serveDist({ routes = {}, root = () => DIST } = {}) {
  await stat(join(root() ?? DIST, 'index.html')).catch(() => {
    throw new Error('dist/index.html is missing: run `make build` (trunk build --release) first');
  });
  const server = createServer(async (req, res) => {
    const prefix = Object.keys(routes).find((p) => req.url.startsWith(p));
    if (prefix) {
      routes[prefix](req, res);
      return;
    }
    const dir = root(req);
    if (!dir) {
      req.socket.destroy();
      return;
    }
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => {
      const closed = new Promise((ok) => server.close(ok));
      // A service worker's keep-alive connections would hold the server.
      server.closeAllConnections();
      return closed;
    },
  };
}

/**
 * Starts the static server and the browser before a test file's tests and
 * stops both after them; `ready(server, browser)` hands them to the file.
 * `options` go to `serveDist` (fixture routes).
 */
export function useServerAndBrowser(ready, options = {}) {
  let server;
  let browser;
  before(async () => {
    server = await serveDist(options);
    browser = await launchBrowser();
    ready(server, browser);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
}

/** Headless Debian Chromium with the flags this environment needs. */
export function launchBrowser() {
  return chromium.launch(CHROMIUM);
}

/** The launch options of `launchBrowser` (also for a persistent profile). */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
  ],
};

/**
 * A new page on the app, waiting until the first result is on screen.
 * The browser's language is Spanish unless `locale` says otherwise (the
 * app follows navigator.languages on a first visit).
 */
export async function openApp(browser, url, { locale = 'es-ES', ...options } = {}) {
  const page = await browser.newPage({ acceptDownloads: true, locale, ...options });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(new Error(m.text()));
  });
  await page.goto(url);
  await page.getByTestId('total-memory').waitFor();
  return { page, errors };
}

/** The CLI's `vramfit/1` document for the same inputs (same core, same JSON). */
export function cliJson(args) {
  const bin = process.env.VRAMFIT_CLI ?? join(ROOT, 'target', 'debug', 'vramfit');
  return JSON.parse(execFileSync(bin, ['estimate', ...args, '--json'], { encoding: 'utf8' }));
}

/** Bytes as the Spanish interface writes them: `18,78 GB` (`32 768` grouping). */
export function esBytes(bytes, unit = 'GB') {
  const value = bytes / (unit === 'GB' ? 1e9 : 2 ** 30);
  const [int, frac] = value.toFixed(2).split('.');
  const grouped = int.length >= 5 ? int.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f') : int;
  return `${grouped},${frac} ${unit}`;
}

/** The exported document of the page's current scenario. */
export async function exportJson(page) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-json').click(),
  ]);
  return { download, doc: JSON.parse(await readFile(await download.path(), 'utf8')) };
}

/** Waits until the service worker controls `page` (boot.js registers it). */
export async function waitForWorker(page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, {
    timeout: 30_000,
  });
}

/** Every cache of the page's origin: `{ name: [url, ...] }`, urls sorted. */
export function pageCaches(page) {
  return page.evaluate(async () => {
    const out = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      out[name] = (await cache.keys()).map((r) => r.url).sort();
    }
    return out;
  });
}

/** The release dist/sw.js was written for: `{ id, files }`. */
export async function builtRelease(dir = DIST) {
  const source = await readFile(join(dir, 'sw.js'), 'utf8');
  const id = source.match(/^ {2}id: "([0-9a-f]{16})",$/m)?.[1];
  const files = [...source.matchAll(/^ {4}(\[".*"\]),$/gm)].map((m) => JSON.parse(m[1]));
  return { id, files };
}

/** The URLs a release's cache holds (the HTML under the site's root). */
export const cachedUrls = (base, files) =>
  files.map(([path]) => (path === 'index.html' ? base : new URL(path, base).href)).sort();

/** Waits until a new release's worker is installed and waiting. */
export async function waitForWaitingWorker(page, timeout = 30_000) {
  const until = Date.now() + timeout;
  for (;;) {
    // One look at the registration, bounded: a look begun while the page
    // reloads may never answer.
    const look = page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state);
    const state = await Promise.race([look.catch(() => null), page.waitForTimeout(2_000).then(() => null)]);
    if (state === 'installed') return;
    if (Date.now() > until) throw new Error(`no waiting worker after ${timeout} ms`);
    await page.waitForTimeout(100);
  }
}

/** Picks the catalog model `id` in the first screen's combobox as a person
 * would: its id typed, its option clicked once the catalog lists it. */
export async function pickModel(page, id) {
  await page.getByTestId('model-search').fill(id);
  await page.locator(`[data-testid=model-option][data-id="${id}"]`).click();
  await page.waitForFunction((v) => document.querySelector('[data-testid=model-search]').value === v, id);
}
