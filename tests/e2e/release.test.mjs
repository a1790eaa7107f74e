// A new release replaces the offline copy whole: the page stays on the
// release it was served from until the person reloads, and is then served
// entirely from the new one (never old JS with new wasm, or an old loader
// with a new page). A half-deployed release is refused.
// Releases B and C are dist/ with a marked page, loader and stylesheet
// (the stylesheet under a new hashed name, as Trunk would write it), and
// their own sw.js from scripts/sw-release.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeWorker } from '../../scripts/sw-release.mjs';
import {
  DIST,
  builtRelease,
  cachedUrls,
  pageCaches,
  useServerAndBrowser,
  waitForWaitingWorker,
  waitForWorker,
} from './helpers.mjs';

let server;
let browser;
let tmp;
const site = { root: DIST };
const releases = {};

useServerAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  { root: () => site.root },
);

/** dist/ as release `name`: every unhashed file and one hashed file differ. */
async function makeRelease(name) {
  const dir = join(tmp, name);
  await cp(DIST, dir, { recursive: true });
  let html = await readFile(join(dir, 'index.html'), 'utf8');
  html = html.replace('</head>', `<meta name="test-release" content="${name}"></head>`);
  const boot = await readFile(join(dir, 'boot.js'), 'utf8');
  await writeFile(join(dir, 'boot.js'), `document.documentElement.dataset.bootRelease = '${name}';\n${boot}`);
  const css = (await readdir(dir)).find((f) => /^vramfit-[0-9a-f]+\.css$/.test(f));
  const body = `${await readFile(join(dir, css), 'utf8')}\nhtml { --test-release: ${name}; }\n`;
  const renamed = `vramfit-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.css`;
  await writeFile(join(dir, css), body);
  await rename(join(dir, css), join(dir, renamed));
  const integrity = `sha384-${createHash('sha384').update(body).digest('base64')}`;
  html = html.replace(new RegExp(`/${css}" integrity="[^"]*"`), `/${renamed}" integrity="${integrity}"`);
  assert.ok(html.includes(renamed));
  await writeFile(join(dir, 'index.html'), html);
  const release = await writeWorker(dir);
  return { dir, release, css: renamed };
}

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'vramfit-releases-'));
  releases.A = { dir: DIST, release: await builtRelease() };
  releases.B = await makeRelease('B');
  releases.C = await makeRelease('C');
  // C half-deployed: its sw.js is up, but the server still has A's page.
  await cp(join(DIST, 'index.html'), join(releases.C.dir, 'index.html'));
});
after(() => rm(tmp, { recursive: true, force: true }));

/** Which release the page, its loader and its stylesheet came from. */
const shown = (page) =>
  page.evaluate(() => ({
    page: document.querySelector('meta[name=test-release]')?.content ?? 'A',
    loader: document.documentElement.dataset.bootRelease ?? 'A',
    style: getComputedStyle(document.documentElement).getPropertyValue('--test-release').trim() || 'A',
  }));

const cacheName = (release) => `vramfit ${server.url} ${release.id}`;

async function openControlled() {
  site.root = DIST;
  const context = await browser.newContext({ locale: 'es-ES' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(server.url);
  await page.getByTestId('total-memory').waitFor();
  await waitForWorker(page);
  assert.deepEqual(Object.keys(await pageCaches(page)), [cacheName(releases.A.release)]);
  return { context, page, errors };
}

test('a new release is taken whole at the next reload, its old cache deleted', async () => {
  const { context, page, errors } = await openControlled();
  // A scenario in the address, which the change of release must keep.
  await page.getByTestId('field-gpu_memory_gb').fill('40');
  await page.waitForFunction(() => location.hash.startsWith('#s='));
  const address = page.url();

  site.root = releases.B.dir;
  // This visit is still A's, whole, while the browser installs B.
  await page.reload();
  await page.getByTestId('total-memory').waitFor();
  assert.deepEqual(await shown(page), { page: 'A', loader: 'A', style: 'A' });
  await waitForWaitingWorker(page);

  // The reload that takes B: every file of the page from B's cache.
  const responses = [];
  page.on('response', (r) => responses.push({ url: r.url(), worker: r.fromServiceWorker() }));
  await page.reload();
  await page.waitForFunction(() => document.querySelector('meta[name=test-release]'), null, { timeout: 30_000 });
  await page.getByTestId('total-memory').waitFor();
  await waitForWorker(page);
  assert.deepEqual(await shown(page), { page: 'B', loader: 'B', style: 'B' });
  assert.equal(page.url(), address);
  assert.equal(await page.getByTestId('field-gpu_memory_gb').inputValue(), '40');
  assert.equal(await page.getByTestId('utilization-ring').getAttribute('aria-valuenow'), '47');

  const bUrls = cachedUrls(server.url, releases.B.release.files);
  const aOnly = cachedUrls(server.url, releases.A.release.files).filter((u) => !bUrls.includes(u));
  const seen = responses.map((r) => r.url.split('#')[0]);
  assert.ok(seen.includes(new URL(releases.B.css, server.url).href), seen.join('\n'));
  assert.deepEqual(seen.filter((u) => aOnly.includes(u)), []);
  assert.deepEqual(responses.filter((r) => !r.worker), []);
  // Only B's cache is left, and it holds exactly B's files.
  assert.deepEqual(await pageCaches(page), { [cacheName(releases.B.release)]: bUrls });

  // Offline, B still answers.
  await context.setOffline(true);
  site.root = null;
  await page.reload();
  await page.getByTestId('total-memory').waitFor();
  assert.deepEqual(await shown(page), { page: 'B', loader: 'B', style: 'B' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a new release waits while another page of the old one is open', async () => {
  const { context, page } = await openControlled();
  const other = await context.newPage();
  await other.goto(server.url);
  await other.getByTestId('total-memory').waitFor();
  site.root = releases.B.dir;
  await page.reload();
  await page.getByTestId('total-memory').waitFor();
  await waitForWaitingWorker(page);
  // Two pages of A are open: reloading one keeps it on A, whole.
  await page.reload();
  await page.getByTestId('total-memory').waitFor();
  assert.deepEqual(await shown(page), { page: 'A', loader: 'A', style: 'A' });
  assert.deepEqual(await shown(other), { page: 'A', loader: 'A', style: 'A' });
  // Once the other page is closed, the next reload takes B.
  await other.close();
  // The page that takes the new release may hold its load event while the
  // worker takes over: wait for the document, then for what it shows.
  await page.reload({ waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => document.querySelector('meta[name=test-release]'), null, { timeout: 30_000 });
  await page.getByTestId('total-memory').waitFor();
  assert.deepEqual(await shown(page), { page: 'B', loader: 'B', style: 'B' });
  await context.close();
});

test('a half-deployed release is refused: the running one stays, whole and offline', async () => {
  const { context, page, errors } = await openControlled();
  site.root = releases.C.dir;
  const outcome = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    const found = new Promise((ok) => registration.addEventListener('updatefound', ok, { once: true }));
    await registration.update().catch(() => {});
    await found;
    const worker = registration.installing;
    if (!worker) return 'no worker installing';
    await new Promise((ok) => {
      const done = () => ['installed', 'redundant'].includes(worker.state) && ok();
      worker.addEventListener('statechange', done);
      done();
    });
    return `${worker.state}, waiting: ${registration.waiting !== null}`;
  });
  assert.equal(outcome, 'redundant, waiting: false');
  // Nothing of C was kept; A's cache is whole.
  assert.deepEqual(await pageCaches(page), {
    [cacheName(releases.A.release)]: cachedUrls(server.url, releases.A.release.files),
  });
  await context.setOffline(true);
  site.root = null;
  await page.reload();
  await page.getByTestId('total-memory').waitFor();
  assert.deepEqual(await shown(page), { page: 'A', loader: 'A', style: 'A' });
  assert.deepEqual(errors, []);
  await context.close();
});
