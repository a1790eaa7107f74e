// The split build (scripts/wasm-split.mjs): the lesson and the notebook
// come in a wasm chunk of their own, fetched after the first result. When
// the chunk cannot be fetched (offline on a first visit, a host that lost
// the file) the calculator keeps working and the page says so, with a
// retry; a second visit offline takes the chunk from the offline worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIST, builtRelease, useServerAndBrowser, waitForWorker } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const CHUNK = /_split_learn\.wasm$/;

test('the build writes a main module, a loader and the chunk; the first load does not name the chunk', async () => {
  const files = await readdir(DIST);
  const chunks = files.filter((f) => CHUNK.test(f));
  assert.equal(chunks.length, 1, files.join(' '));
  const base = chunks[0].replace(CHUNK, '');
  for (const f of [`${base}.js`, `${base}_bg.wasm`, `${base}_split.js`]) assert.ok(files.includes(f), `${f} in ${files.join(' ')}`);
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  assert.ok(html.includes(`${base}_split.js" crossorigin="anonymous" integrity="sha384-`), 'the loader is preloaded with its hash');
  assert.ok(!html.includes(chunks[0]), 'the chunk is not on the first load');
  const loader = await readFile(join(DIST, `${base}_split.js`), 'utf8');
  assert.ok(loader.includes(`"./${chunks[0]}"`) && loader.includes(`from "./${base}.js"`));
  assert.ok((await builtRelease()).files.some(([path]) => path === chunks[0]), 'the offline worker keeps the chunk');
});

test('the panels arrive from the chunk after the first result', async () => {
  const context = await browser.newContext({ locale: 'es-ES' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  const chunkRequests = [];
  page.on('request', (r) => CHUNK.test(new URL(r.url()).pathname) && chunkRequests.push(r.url()));
  await page.goto(server.url);
  await page.getByTestId('total-memory').waitFor();
  await page.getByTestId('lesson-panel').waitFor();
  await page.getByTestId('notebook-panel').waitFor();
  assert.equal(chunkRequests.length, 1);
  assert.equal(await page.getByTestId('learn-loading').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('without the chunk the calculator works and says the panels could not load; a retry loads them', async () => {
  const context = await browser.newContext({ locale: 'en-GB' });
  let blocked = true;
  await context.route(CHUNK, (route) => (blocked ? route.abort('internetdisconnected') : route.continue()));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(server.url);
  await page.getByTestId('total-memory').waitFor();
  const unavailable = page.getByTestId('learn-unavailable');
  await unavailable.waitFor();
  assert.equal(await unavailable.getAttribute('role'), 'alert');
  assert.match(await unavailable.innerText(), /could not be loaded/);
  assert.equal(await page.getByTestId('lesson-panel').count(), 0);
  // The calculator still answers.
  const before = await page.getByTestId('total-memory').innerText();
  await page.locator('#vf-field-context').fill('32768');
  await page.waitForFunction((was) => document.querySelector('[data-testid=total-memory]').innerText !== was, before);
  // Back online: the retry fetches the chunk and mounts both panels.
  blocked = false;
  await page.getByTestId('learn-retry').click();
  await page.getByTestId('lesson-panel').waitFor();
  await page.getByTestId('notebook-panel').waitFor();
  assert.equal(await unavailable.count(), 0);
  await page.getByTestId('notebook-add').click();
  await page.getByTestId('notebook-entry').waitFor();
  assert.deepEqual(errors, [], 'a failed chunk is no page error (no panic)');
  await context.close();
});

test('a second visit offline takes the chunk from the offline worker', async () => {
  const context = await browser.newContext({ locale: 'es-ES' });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByTestId('lesson-panel').waitFor();
  await waitForWorker(page);
  await context.setOffline(true);
  await page.reload();
  await page.getByTestId('total-memory').waitFor();
  await page.getByTestId('lesson-panel').waitFor();
  await page.getByTestId('notebook-panel').waitFor();
  assert.equal(await page.getByTestId('learn-unavailable').count(), 0);
  await context.close();
});
