// What a person does with the calculator: read the default answer, change
// an input, see the total and the ring change, export the result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, cliJson, exportJson, useServerAndBrowser } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

test('the first screen already answers: seed 004 example on a 24 GB card', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await assert.doesNotReject(page.getByTestId('total-memory').filter({ hasText: '18,78 GB' }).waitFor());
  const ring = page.getByRole('progressbar');
  assert.equal(await ring.getAttribute('data-status'), 'con_margen');
  assert.equal(await ring.getAttribute('aria-valuenow'), '78.3');
  assert.equal(await page.getByTestId('ring-percent').innerText(), '78,3 %');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a longer context raises the total and turns the ring to no_cabe', async () => {
  const { page, errors } = await openApp(browser, server.url);
  const ring = page.getByTestId('utilization-ring');
  await page.getByLabel('Contexto', { exact: true }).fill('65536');
  await page.getByTestId('total-memory').filter({ hasText: '27,05 GB' }).waitFor();
  assert.equal(await ring.getAttribute('data-status'), 'no_cabe');
  assert.equal(await ring.getAttribute('aria-valuenow'), '112.7');
  assert.match(await page.getByTestId('ring-detail').innerText(), /faltan 3,05 GB/);
  // A 4-bit model at the same context fits again, with room to spare (58 %).
  await page.getByLabel('Bits por peso', { exact: true }).fill('4');
  await page.getByTestId('total-memory').filter({ hasText: '13,85 GB' }).waitFor();
  assert.equal(await ring.getAttribute('data-status'), 'holgada');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad value is explained and the last good result stays', async () => {
  const { page } = await openApp(browser, server.url);
  await page.getByLabel('Capas', { exact: true }).fill('-3');
  await page.getByTestId('hint-layers').filter({ hasText: 'Debe estar entre 1 y 1024.' }).waitFor();
  assert.equal(await page.getByTestId('total-memory').innerText(), '18,78 GB');
  assert.equal(await page.getByLabel('Capas', { exact: true }).getAttribute('aria-invalid'), 'true');
  await page.close();
});

test('export downloads the complete result, identical to the CLI document', async () => {
  const { page } = await openApp(browser, server.url);
  await page.getByTestId('field-context').fill('32768');
  await page.getByTestId('field-gpu_memory_gb').fill('48');
  await page.getByTestId('total-memory').filter({ hasText: '22,32 GB' }).waitFor();
  const { download, doc } = await exportJson(page);
  assert.equal(download.suggestedFilename(), 'vramfit.json');
  assert.equal(doc.schema, 'vramfit/1');
  assert.equal(doc.inputs.context, 32768);
  assert.equal(doc.estimate.total_bytes, 22_324_464_026);
  assert.equal(doc.estimate.verdict.status, 'holgada');
  assert.deepEqual(doc, cliJson(['--method', 'quick', '--seq', '32768', '--capacity-gb', '48']));
  await page.close();
});

test('training mode moves to a method that estimates it and compares methods', async () => {
  const { page, errors } = await openApp(browser, server.url);
  const table = page.getByTestId('methods-table');
  await assert.doesNotReject(table.getByRole('row').nth(2).waitFor());
  assert.match(await page.getByTestId('method-row-lesson').innerText(), /27,04 GB/);
  await page.getByTestId('mode-full').click();
  await page.getByTestId('total-memory').filter({ hasText: '173,01 GB' }).waitFor();
  assert.equal(await page.getByTestId('method-quick').isDisabled(), true);
  assert.equal(await page.getByTestId('method-lesson').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.getByRole('progressbar').getAttribute('data-status'), 'no_cabe');
  // Back to inference, quick is available again and one click away.
  await page.getByTestId('mode-inference').click();
  await page.getByTestId('method-quick').click();
  await page.getByTestId('total-memory').filter({ hasText: '18,78 GB' }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});
