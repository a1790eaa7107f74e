// Export → import, dropping and pasting a document, a bad file, and the
// share link: every way a calculation leaves the page and comes back.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, openApp, exportJson, useServerAndBrowser } from './helpers.mjs';

let server;
let browser;
let scratch;

useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'vramfit-e2e-'));
});

/** A scenario away from the defaults in several places. */
async function customize(page) {
  const config = await readFile(
    join(ROOT, 'crates', 'vramfit-core', 'data', 'configs', 'Qwen__Qwen3-8B.json'),
    'utf8',
  );
  await page.getByTestId('config-input').fill(config);
  await page.getByTestId('model-summary').waitFor();
  await page.getByTestId('field-context').fill('40000');
  await page.getByTestId('weight-format-q4_k_m').click();
  await page.getByTestId('gpu-select').fill('RTX 4090');
  await page.getByTestId('advanced').locator('summary').click();
  await page.getByTestId('field-gpus').fill('2');
  await page.getByTestId('advanced-count').filter({ hasText: '(1 cambiado)' }).waitFor();
}

test('export then import restores the same calculation', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await customize(page);
  const { doc: exported, download } = await exportJson(page);
  const total = await page.getByTestId('total-memory').innerText();
  // A fresh page on the example, then the file chosen by hand.
  const fresh = await openApp(browser, server.url);
  await fresh.page.getByTestId('total-memory').filter({ hasText: '18,78 GB' }).waitFor();
  await fresh.page.getByTestId('import-json').setInputFiles(await download.path());
  await fresh.page.getByTestId('transfer-status').filter({ hasText: 'Escenario importado.' }).waitFor();
  await fresh.page.getByTestId('total-memory').filter({ hasText: total }).waitFor();
  assert.equal(await fresh.page.getByTestId('field-context').inputValue(), '40000');
  assert.equal(await fresh.page.getByTestId('gpu-select').inputValue(), 'NVIDIA GeForce RTX 4090');
  assert.equal(
    await fresh.page.getByTestId('weight-format-q4_k_m').getAttribute('aria-pressed'),
    'true',
  );
  const { doc: again } = await exportJson(fresh.page);
  assert.deepEqual(again, exported);
  assert.deepEqual([...errors, ...fresh.errors], []);
  await page.close();
  await fresh.page.close();
});

test('a dropped or pasted export is imported too', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await page.getByTestId('field-context').fill('2048');
  const { doc } = await exportJson(page);
  await page.getByTestId('field-context').fill('8192');
  await page.getByTestId('total-memory').filter({ hasText: '18,78 GB' }).waitFor();
  // Dropped on the page.
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], 'vramfit.json', { type: 'application/json' }));
    const main = document.querySelector('main');
    main.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    main.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, JSON.stringify(doc));
  await page.getByTestId('transfer-status').filter({ hasText: 'Escenario importado.' }).waitFor();
  assert.equal(await page.getByTestId('field-context').inputValue(), '2048');
  // Pasted where a config.json would go.
  await page.getByTestId('field-context').fill('8192');
  await page.getByTestId('config-input').fill(JSON.stringify(doc, null, 2));
  await page.waitForFunction(() => document.querySelector('[data-testid=field-context]').value === '2048');
  assert.equal(await page.getByTestId('config-input').inputValue(), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad file is explained and nothing is lost', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await page.getByTestId('field-context').fill('12000');
  const total = await page.getByTestId('total-memory').innerText();
  const cases = [
    ['garbage.json', '{ this is not json', /no es JSON válido \(línea 1, columna 3\)/],
    ['empty.json', '', /El archivo está vacío/],
    ['config.json', '{"model_type": "llama"}', /le falta el objeto «inputs»/],
    ['future.json', '{"schema": "vramfit/2", "inputs": {}}', /«vramfit\/2»/],
    ['typo.json', '{"schema": "vramfit/1", "inputs": {"contxt": 5}}', /contxt/],
    ['range.json', '{"schema": "vramfit/1", "inputs": {"gpu_memory_gb": -1}}', /Memoria de la GPU: Debe estar entre/],
  ];
  for (const [name, text, message] of cases) {
    const file = join(scratch, name);
    await writeFile(file, text);
    await page.getByTestId('import-json').setInputFiles(file);
    await page.getByTestId('transfer-status').filter({ hasText: message }).waitFor();
    assert.match(await page.getByTestId('transfer-status').innerText(), /No se ha cambiado nada|vacío/);
    assert.equal(await page.getByTestId('total-memory').innerText(), total, name);
    assert.equal(await page.getByTestId('field-context').inputValue(), '12000', name);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the address carries the scenario: a copied link reopens the same calculation', async () => {
  const context = await browser.newContext({ locale: 'es-ES', acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByTestId('total-memory').waitFor();
  await customize(page);
  const { doc } = await exportJson(page);
  // The scenario, then the view it was seen in (unit, language).
  assert.match(page.url(), /#s=[A-Za-z0-9_-]+&u=gb&l=es$/);
  await page.getByTestId('copy-link').click();
  await page.getByTestId('transfer-status').filter({ hasText: 'Enlace copiado' }).waitFor();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(link, page.url());
  // The link in a new tab: the same document, byte for byte.
  const other = await context.newPage();
  await other.goto(link);
  await other.getByTestId('model-summary').waitFor();
  const { doc: reopened } = await exportJson(other);
  assert.deepEqual(reopened, doc);
  // The advanced knobs that differ open by themselves.
  assert.equal(await other.getByTestId('advanced').getAttribute('open'), '');
  // A damaged link says so and opens the example.
  const broken = await context.newPage();
  await broken.goto(`${server.url}#s=bm90IGpzb24`);
  await broken.getByTestId('transfer-status').filter({ hasText: 'El enlace no contenía un escenario válido' }).waitFor();
  assert.equal(await broken.getByTestId('total-memory').innerText(), '18,78 GB');
  await context.close();
});
