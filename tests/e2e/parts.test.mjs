// The parts that come after the first result (src/parts.rs, docs/size.md):
// the engine and the panels under the breakdown (chunk `details`), the model
// input (chunk `model`), the model catalog (a file checked against the hash
// index.html gives), each language's texts (one chunk per language). Each
// arrives and works; each that cannot be fetched says so where it belongs,
// with a retry, while the calculator keeps answering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIST, cliJson, esBytes, pickModel, useServerAndBrowser, waitForWorker } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const CATALOG = /\/catalog-[0-9a-f]+\.txt$/;
const DETAILS = /_split_details\.wasm$/;
const MODEL = /_split_model\.wasm$/;
const LANG_EN = /_split_lang_en\.wasm$/;

/** A new context and page; `blocked(url)` decides which requests fail (as offline). */
async function open(locale = 'es-ES', blocked = () => false) {
  const context = await browser.newContext({ locale, acceptDownloads: true });
  await context.route('**/*', (route) =>
    blocked(route.request().url()) ? route.abort('internetdisconnected') : route.continue(),
  );
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  return { context, page, errors, requests };
}

/** The method whose button is pressed. */
const pressedMethod = (page) =>
  page.locator('[data-testid^=method-][aria-pressed=true]').getAttribute('data-testid').then((t) => t.slice(7));

test('every part arrives after the first result and none is left loading', async () => {
  const { context, page, errors, requests } = await open();
  await page.goto(server.url);
  await page.getByTestId('total-memory').filter({ hasText: '18,78 GB' }).waitFor();
  for (const id of ['methods-table', 'answers', 'export-json', 'interpretation', 'speed-panel', 'context-chart', 'lesson-panel']) {
    await page.getByTestId(id).first().waitFor();
  }
  // The picker lists the catalog once the file is here.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=model-option]').length > 100);
  for (const part of ['results-more', 'details', 'model-input', 'model-facts', 'catalog', 'learn', 'results']) {
    assert.equal(await page.getByTestId(`${part}-loading`).count(), 0, part);
    assert.equal(await page.getByTestId(`${part}-unavailable`).count(), 0, part);
  }
  // Each was fetched once: the catalog, the two chunks, one language.
  assert.equal(requests.filter((p) => CATALOG.test(p)).length, 1);
  assert.equal(requests.filter((p) => DETAILS.test(p)).length, 1);
  assert.equal(requests.filter((p) => MODEL.test(p)).length, 1);
  assert.equal(requests.filter((p) => /_split_lang_/.test(p)).length, 1);
  assert.ok(requests.some((p) => /_split_lang_es\.wasm$/.test(p)));
  // The whole report is on screen: the methods that apply, the answers.
  assert.equal(await page.locator('[data-testid=methods-table] tbody tr').count(), 2);
  assert.match(await page.getByTestId('answer-max-context').innerText(), /tokens/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the lesson\'s and the engines\' style sheets come with the parts that use them, not with the first load', async () => {
  const { context, page, errors, requests } = await open();
  await page.goto(server.url);
  await page.getByTestId('total-memory').filter({ hasText: '18,78 GB' }).waitFor();
  await page.getByTestId('lesson-panel').first().waitFor();
  await page.getByTestId('methods-table').first().waitFor();
  // Each sheet under a name with its hash (no cache keeps an old copy across
  // a release), given by index.html with its integrity.
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  const named = {};
  for (const name of ['notebook', 'engine']) {
    const meta = html.match(new RegExp(`<meta name="vramfit-sheet-${name}" content="(style/${name}-[0-9a-f]{16}\\.css)" data-integrity="(sha384-[^"]+)">`));
    assert.ok(meta, `index.html names the ${name} sheet`);
    named[name] = { path: `/${meta[1]}`, integrity: meta[2] };
  }
  const built = await readdir(join(DIST, 'style'));
  assert.ok(!built.includes('notebook.css') && !built.includes('engine.css'), built.join(' '));
  // Linked in the head once their chunks have loaded, each read with its rules.
  const paths = Object.values(named).map((n) => n.path);
  await page.waitForFunction(
    (paths) => paths.every((p) => [...document.styleSheets].some((s) => s.href && new URL(s.href).pathname === p && s.cssRules.length > 0)),
    paths,
  );
  for (const { path, integrity } of Object.values(named)) {
    const link = page.locator(`link[rel=stylesheet][href="${path.slice(1)}"]`);
    assert.equal(await link.count(), 1, path);
    assert.equal(await link.getAttribute('integrity'), integrity, path);
    assert.equal(requests.filter((p) => p === path).length, 1, path);
  }
  // Not linked by the page itself: the first load does not wait for them.
  assert.ok(!/<link[^>]*style\/(notebook|engine)/.test(html));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the lesson never shows unstyled: it waits for its sheet, however slow', async () => {
  const context = await browser.newContext({ locale: 'es-ES' });
  // The notebook sheet answers a second and a half late.
  await context.route(/\/style\/notebook-[0-9a-f]{16}\.css$/, async (route) => {
    await new Promise((ok) => setTimeout(ok, 1500));
    await route.continue();
  });
  // When the lesson panel enters the page, is its sheet already in force?
  await context.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector('[data-testid=lesson-panel]')) return;
      window.sheetWhenShown = [...document.styleSheets].some(
        (s) => s.href && /\/style\/notebook-[0-9a-f]{16}\.css$/.test(s.href) && s.cssRules.length > 0,
      );
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByTestId('lesson-panel').first().waitFor();
  assert.equal(await page.evaluate(() => window.sheetWhenShown), true);
  await context.close();
});

test('picking a catalog model loads the catalog and the reader, then computes as the CLI does', async () => {
  const { context, page, errors, requests } = await open();
  await page.goto(server.url);
  await page.getByTestId('total-memory').waitFor();
  const id = 'meta-llama/Llama-3.1-8B';
  await page.locator(`[data-testid=model-option][data-id="${id}"]`).waitFor({ state: 'attached' });
  assert.ok(requests.some((p) => CATALOG.test(p)));
  await pickModel(page, id);
  await page.getByTestId('model-summary').waitFor();
  assert.match(await page.getByTestId('model-summary').innerText(), /8,03 B/);
  const method = await pressedMethod(page);
  const doc = cliJson([id, '--method', method]);
  await page.getByTestId('total-memory').filter({ hasText: esBytes(doc.estimate.total_bytes) }).waitFor();
  // Switching mode re-picks the method (the engine's work), as the CLI would.
  await page.getByTestId('mode-full').click();
  await page.locator('[data-testid=method-allocator][aria-pressed=true]').waitFor();
  assert.equal(await page.getByTestId('scenario-error').innerText(), '');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link naming a catalog model opens on its figures once the engine and the catalog are here', async () => {
  const { context, page, errors } = await open();
  const request = { method: 'quick', model: { catalog: 'meta-llama/Llama-3.1-70B' }, context: 16384 };
  const link = `${server.url}#s=${Buffer.from(JSON.stringify(request)).toString('base64url')}`;
  const doc = cliJson(['meta-llama/Llama-3.1-70B', '--method', 'quick', '--seq', '16384']);
  await page.goto(link);
  await page.getByTestId('total-memory').filter({ hasText: esBytes(doc.estimate.total_bytes) }).waitFor();
  assert.equal(await page.getByTestId('model-search').inputValue(), 'meta-llama/Llama-3.1-70B');
  assert.equal(await page.getByTestId('transfer-status').innerText(), '');
  assert.deepEqual(errors, []);
  await context.close();
});

test('without the details chunk the ring still answers typed numbers; its panels say so and a retry brings them', async () => {
  let down = true;
  const { context, page, errors } = await open('en-GB', (url) => down && DETAILS.test(url));
  await page.goto(server.url);
  await page.getByTestId('total-memory').filter({ hasText: '18.78 GB' }).waitFor();
  for (const part of ['results-more', 'details']) {
    const message = page.getByTestId(`${part}-unavailable`);
    await message.waitFor();
    assert.equal(await message.getAttribute('role'), 'alert');
    assert.match(await message.innerText(), /could not be loaded/);
  }
  // Typed numbers with the quick method: the main module answers alone.
  await page.getByLabel('Context', { exact: true }).fill('65536');
  await page.getByTestId('total-memory').filter({ hasText: '27.05 GB' }).waitFor();
  assert.equal(await page.getByTestId('utilization-ring').getAttribute('data-status'), 'no_cabe');
  down = false;
  await page.getByTestId('results-more-retry').click();
  await page.getByTestId('methods-table').waitFor();
  await page.getByTestId('details-retry').click();
  await page.getByTestId('interpretation').waitFor();
  await page.getByTestId('mode-full').click();
  await page.locator('[data-testid=method-lesson][aria-pressed=true]').waitFor();
  assert.deepEqual(errors, [], 'a failed chunk is no page error');
  await context.close();
});

test('without the catalog file the picker says so, the rest works, a retry fills it', async () => {
  let down = true;
  const { context, page, errors } = await open('es-ES', (url) => down && CATALOG.test(url));
  await page.goto(server.url);
  await page.getByTestId('total-memory').waitFor();
  const message = page.getByTestId('catalog-unavailable');
  await message.waitFor();
  assert.equal(await message.getAttribute('role'), 'alert');
  assert.equal(await page.locator('[data-testid=model-option]').count(), 0);
  // A pasted config does not need the catalog.
  const config = await readFile(join(import.meta.dirname, '..', '..', 'crates', 'vramfit-core', 'data', 'configs', 'Qwen__Qwen3-8B.json'), 'utf8');
  await page.getByTestId('config-input').fill(config);
  await page.getByTestId('model-summary').waitFor();
  down = false;
  await page.getByTestId('catalog-retry').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=model-option]').length > 100);
  assert.equal(await message.count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a catalog file with other bytes than index.html names is refused', async () => {
  const { context, page, errors } = await open();
  await context.route(CATALOG, async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace('"num_hidden_layers":32', '"num_hidden_layers":33');
    await route.fulfill({ response, body });
  });
  await page.goto(server.url);
  await page.getByTestId('total-memory').waitFor();
  await page.getByTestId('catalog-unavailable').waitFor();
  assert.equal(await page.locator('[data-testid=model-option]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('without the model chunk the model input says so; a retry brings it', async () => {
  let down = true;
  const { context, page, errors } = await open('es-ES', (url) => down && MODEL.test(url));
  await page.goto(server.url);
  await page.getByTestId('total-memory').waitFor();
  await page.getByTestId('model-input-unavailable').waitFor();
  // The typed shape is still there.
  await page.getByTestId('field-layers').waitFor();
  down = false;
  await page.getByTestId('model-input-retry').click();
  await page.getByTestId('config-input').waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('one language per visit: another is fetched when chosen, and one that cannot be says so', async () => {
  let down = true;
  const { context, page, errors, requests } = await open('es-ES', (url) => down && LANG_EN.test(url));
  await page.goto(server.url);
  await page.getByTestId('total-memory').waitFor();
  assert.ok(!requests.some((p) => /_split_lang_(en|nl)\.wasm$/.test(p)));
  await page.getByTestId('lang-en').click();
  await page.getByTestId('lang-unavailable').waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), 'es');
  assert.equal(await page.getByTestId('total-memory').innerText(), '18,78 GB');
  down = false;
  await page.getByTestId('lang-en').click();
  await page.getByTestId('total-memory').filter({ hasText: '18.78 GB' }).waitFor();
  assert.equal(await page.getByTestId('lang-unavailable').count(), 0);
  await page.getByTestId('lang-nl').click();
  await page.getByTestId('total-memory').filter({ hasText: '18,78 GB' }).waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), 'nl');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a first visit whose language cannot be fetched says so in every language', async () => {
  const { context, page } = await open('en-GB', (url) => LANG_EN.test(url));
  await page.goto(server.url);
  const message = page.getByTestId('panic-message');
  await message.waitFor();
  assert.match(await message.innerText(), /could not be loaded/);
  assert.match(await message.innerText(), /no se pudo cargar/);
  await context.close();
});

test('offline after a first visit: the catalog, every chunk and every language come from the offline worker', async () => {
  const { context, page, errors } = await open();
  await page.goto(server.url);
  await page.getByTestId('lesson-panel').waitFor();
  await waitForWorker(page);
  // The worker keeps every chunk and the catalog, but no compressed copy.
  const cached = await page.evaluate(async () => {
    const out = [];
    for (const name of await caches.keys()) out.push(...(await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname.slice(1)));
    return out;
  });
  const built = (await readdir(DIST)).filter((f) => /\.(wasm|txt)$/.test(f));
  for (const f of built) assert.ok(cached.includes(f), f);
  assert.ok(!cached.some((f) => /\.(gz|br)$/.test(f)));
  await context.setOffline(true);
  await page.reload();
  await page.getByTestId('total-memory').waitFor();
  await pickModel(page, 'Qwen/Qwen3-8B');
  await page.getByTestId('model-summary').waitFor();
  await page.getByTestId('lang-nl').click();
  await page.locator('html[lang=nl]').waitFor();
  await page.getByTestId('methods-table').waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('precompressed copies sit beside every text and wasm file, and decompress to it', async () => {
  const { gunzipSync, brotliDecompressSync } = await import('node:zlib');
  const files = (await readdir(DIST)).filter((f) => /\.(html|js|css|wasm|svg|webmanifest|txt)$/.test(f));
  assert.ok(files.length > 10);
  for (const f of files) {
    const body = await readFile(join(DIST, f));
    assert.deepEqual(gunzipSync(await readFile(join(DIST, `${f}.gz`))), body, `${f}.gz`);
    assert.deepEqual(brotliDecompressSync(await readFile(join(DIST, `${f}.br`))), body, `${f}.br`);
  }
});

test('the catalog file holds models.json, every config it names and their side files, JSON unchanged, under the hash index.html gives', async () => {
  const { createHash } = await import('node:crypto');
  const data = join(import.meta.dirname, '..', '..', 'crates', 'vramfit-core', 'data');
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  const [, name, integrity] = html.match(/<meta name="vramfit-catalog" content="([^"]+)" data-integrity="([^"]+)">/);
  const bytes = await readFile(join(DIST, name));
  assert.equal(integrity, `sha384-${createHash('sha384').update(bytes).digest('base64')}`);
  // The format of src/catalog_file.rs: a header, then NAME<TAB>LENGTH and the text.
  const text = bytes.toString('utf8');
  assert.ok(text.startsWith('vramfit-catalog 1\n'));
  const entries = new Map();
  let rest = Buffer.from(text.slice('vramfit-catalog 1\n'.length));
  while (rest.length) {
    const eol = rest.indexOf(10);
    const [entry, length] = rest.subarray(0, eol).toString().split('\t');
    entries.set(entry, rest.subarray(eol + 1, eol + 1 + Number(length)).toString());
    rest = rest.subarray(eol + 1 + Number(length));
  }
  const models = JSON.parse(await readFile(join(data, 'models.json'), 'utf8'));
  assert.deepEqual(JSON.parse(entries.get('models.json')), models);
  // Every config, and every hf_quant_config.json side file as hf_quant/FILE.
  const files = [
    ...models.models.map((m) => m.file),
    ...models.models.filter((m) => m.hf_quant_config).map((m) => `hf_quant/${m.hf_quant_config.file}`),
  ];
  assert.ok(files.some((f) => f.startsWith('hf_quant/')), 'the catalog has side files');
  assert.deepEqual([...entries.keys()].slice(1).sort(), [...files].sort());
  for (const file of files) {
    const original = await readFile(join(data, 'configs', file), 'utf8');
    // The same tokens: equal once every space outside strings is gone on both sides
    // (NaN and Infinity, which JSON.parse refuses, included).
    const tokens = (s) => s.match(/"(?:[^"\\]|\\.)*"|[^\s"]+/g).join('');
    assert.equal(entries.get(file), tokens(original), file);
  }
});
