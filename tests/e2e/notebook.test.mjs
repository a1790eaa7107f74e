// The lesson and its learning notebook, as a student uses them: predict
// before seeing the result, record the evidence, find it again after a
// reload and in another language, export, clear, undo, import. Damaged
// stored data is kept aside, and two tabs adding entries lose none.
//
// Needs the app with <LessonPanel> and <NotebookPanel> mounted (sharing one
// Notebook) and the header's language switch (`lang-en`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useServerAndBrowser } from './helpers.mjs';

const KEY = 'vramfit.notebook.v1';
const BACKUP_PREFIX = 'vramfit.notebook.backup.';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** A page of the app in `context`, waiting for the first result and both panels. */
async function open(context) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(new Error(m.text()));
  });
  await page.goto(server.url);
  await ready(page);
  return { page, errors };
}

async function ready(page) {
  await page.getByTestId('total-memory').waitFor();
  await page.getByTestId('lesson-panel').waitFor();
  await page.getByTestId('notebook-panel').waitFor();
}

const stored = (page) => page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null'), KEY);

/** Waits until the page lists exactly `n` notebook entries. */
async function entriesAre(page, n) {
  await page.waitForFunction(
    (want) => document.querySelectorAll('[data-testid="notebook-entry"]').length === want,
    n,
  );
}

test('a student predicts, reveals, records, and keeps the evidence through reload, language, export, clear, undo and import', async () => {
  const context = await browser.newContext({ locale: 'es-ES', acceptDownloads: true });
  const { page, errors } = await open(context);

  // The result is hidden until a prediction is written.
  assert.equal(await page.getByTestId('lesson-result').count(), 0);
  await page.getByTestId('lesson-result-hidden').waitFor();
  assert.equal(await page.getByTestId('lesson-reveal').isDisabled(), true);
  await page.getByTestId('lesson-prediction').fill('18,8');
  assert.equal(await page.getByTestId('lesson-result').count(), 0, 'typing alone reveals nothing');
  await page.getByTestId('lesson-reveal').click();
  await page.getByTestId('lesson-result').waitFor();
  assert.match(await page.getByTestId('lesson-predicted').innerText(), /^18,80 GB/);
  assert.match(await page.getByTestId('lesson-observed').innerText(), /^18,78 GB/);
  const discrepancy = page.getByTestId('lesson-discrepancy');
  assert.equal(await discrepancy.getAttribute('data-bytes'), '18883994');
  assert.match(await discrepancy.innerText(), /^\+0,02 GB \(\+0,1 %\)/);
  assert.equal(await page.getByTestId('lesson-contract-implement').getAttribute('data-done'), 'true');

  // The same calculation from the command line.
  assert.equal(await page.getByTestId('lesson-cli').innerText(), 'vramfit estimate --method quick --mode inference');

  // Record it, with a note and a counterexample.
  await page.getByTestId('lesson-counterexample').fill('Gemma 2: la ventana deja de crecer');
  await page.getByTestId('lesson-notes').fill('Los pesos FP16 dominan');
  await page.getByTestId('notebook-add').click();
  await entriesAre(page, 1);
  const entry = page.getByTestId('notebook-entry').first();
  assert.match(await entry.getByTestId('notebook-entry-step').innerText(), /Predecir/);
  assert.match(await entry.getByTestId('notebook-entry-discrepancy').innerText(), /^\+0,02 GB/);
  let doc = await stored(page);
  assert.equal(doc.schema, 'vramfit-notebook/1');
  assert.equal(doc.entries.length, 1);
  assert.equal(doc.entries[0].scenario.context, 8192);
  assert.equal(doc.entries[0].observed.total_bytes, 18_781_116_006);
  assert.equal(doc.entries[0].discrepancy.difference_bytes, 18_883_994);
  assert.equal(doc.entries[0].notes, 'Los pesos FP16 dominan');
  assert.equal(doc.entries[0].counterexample, 'Gemma 2: la ventana deja de crecer');
  assert.ok(doc.entries[0].app_version);

  // A reload keeps it.
  await page.reload();
  await ready(page);
  await entriesAre(page, 1);

  // Another language: the same notebook, in English.
  await page.getByTestId('lang-en').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="notebook-panel"]')?.getAttribute('lang') === 'en');
  assert.match(await entry.getByTestId('notebook-entry-step').innerText(), /Predict a boundary case/);
  assert.match(await entry.getByTestId('notebook-entry-discrepancy').innerText(), /^\+0\.02 GB/);
  assert.equal(await entry.getByTestId('notebook-entry-notes').innerText(), 'Los pesos FP16 dominan');
  assert.equal((await stored(page)).entries.length, 1, 'one key for every language');

  // Opening the entry puts its scenario back in the calculator.
  await page.locator('#vf-field-context').fill('4096');
  await page.waitForFunction(() => document.querySelector('#vf-field-context')?.value === '4096');
  await entry.getByTestId('notebook-entry-open').click();
  await page.waitForFunction(() => document.querySelector('#vf-field-context')?.value === '8192');

  // Export.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('notebook-export').click()]);
  assert.equal(download.suggestedFilename(), 'vramfit-notebook.json');
  const exportedText = await readFile(await download.path(), 'utf8');
  const exported = JSON.parse(exportedText);
  assert.equal(exported.schema, 'vramfit-notebook/1');
  assert.equal(exported.entries.length, 1);
  const file = join(await mkdtemp(join(tmpdir(), 'vramfit-notebook-')), 'vramfit-notebook.json');
  await writeFile(file, exportedText);

  // Clear asks first; then undo brings the entry back.
  await page.getByTestId('notebook-clear').click();
  await page.getByTestId('notebook-clear-confirm').waitFor();
  await entriesAre(page, 1);
  await page.getByTestId('notebook-clear-confirm').click();
  await entriesAre(page, 0);
  assert.equal((await stored(page)).entries.length, 0);
  await page.getByTestId('notebook-undo').click();
  await entriesAre(page, 1);
  assert.equal((await stored(page)).entries.length, 1);

  // Clear again, then import the export: merged back by id.
  await page.getByTestId('notebook-clear').click();
  await page.getByTestId('notebook-clear-confirm').click();
  await entriesAre(page, 0);
  await page.getByTestId('notebook-import').setInputFiles(file);
  await entriesAre(page, 1);
  assert.match(await page.getByTestId('notebook-notice').last().innerText(), /1 restored/);
  doc = await stored(page);
  assert.equal(doc.entries.length, 1);
  assert.equal(doc.entries[0].id, exported.entries[0].id);
  // Importing the same file again changes nothing.
  await page.getByTestId('notebook-import').setInputFiles(file);
  await page.getByTestId('notebook-notice').filter({ hasText: '1 unchanged' }).waitFor();
  await entriesAre(page, 1);

  assert.deepEqual(errors, []);
  await context.close();
});

test('a damaged stored notebook is kept aside untouched and the student is told', async () => {
  const context = await browser.newContext({ locale: 'es-ES' });
  const { page } = await open(context);
  const damaged = '{"schema":"vramfit-notebook/1","entries":[{"id":"a","scenario":';
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [KEY, damaged]);
  await page.reload();
  await ready(page);

  const notice = page.getByTestId('notebook-notice').first();
  await notice.waitFor();
  const words = await notice.innerText();
  const key = words.match(/vramfit\.notebook\.backup\.[0-9-]+/)?.[0];
  assert.ok(key, words);
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), key), damaged);
  assert.equal(await page.getByTestId('notebook-warning').count(), 0);

  // The notebook works again, and the backup stays as it was.
  await page.getByTestId('notebook-add').click();
  await entriesAre(page, 1);
  assert.equal((await stored(page)).entries.length, 1);
  const backups = await page.evaluate(
    (prefix) => Object.keys(localStorage).filter((k) => k.startsWith(prefix)),
    BACKUP_PREFIX,
  );
  assert.deepEqual(backups, [key]);
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), key), damaged);
  await context.close();
});

test('two tabs adding entries at the same time lose none', async () => {
  const context = await browser.newContext({ locale: 'es-ES' });
  const [a, b] = await Promise.all([open(context), open(context)]);
  const addMany = async (page, n) => {
    for (let i = 0; i < n; i += 1) {
      await page.getByTestId('notebook-add').click();
    }
  };
  await Promise.all([addMany(a.page, 5), addMany(b.page, 5)]);
  await entriesAre(a.page, 10);
  await entriesAre(b.page, 10);
  const doc = await stored(a.page);
  assert.equal(doc.entries.length, 10);
  assert.equal(new Set(doc.entries.map((e) => e.id)).size, 10);
  // A deletion in one tab is not undone by the other's copy.
  await a.page.getByTestId('notebook-entry').first().getByTestId('notebook-entry-delete').click();
  await entriesAre(a.page, 9);
  await entriesAre(b.page, 9);
  await b.page.getByTestId('notebook-add').click();
  await entriesAre(b.page, 10);
  await entriesAre(a.page, 10);
  assert.equal((await stored(b.page)).entries.length, 10);
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await context.close();
});
