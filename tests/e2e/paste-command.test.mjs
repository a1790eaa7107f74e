// "Paste your command" (issue 19): an engine's command line fills the
// inputs and picks the method through the core's command reader; a line it
// refuses is named in the page's language and leaves the inputs as they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, useServerAndBrowser } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function paste(page, line) {
  await page.getByTestId('paste-command').fill(line);
  await page.getByTestId('paste-apply').click();
}

test('a vllm serve line sets the model, the context, the GPUs and the method', async () => {
  const { page, errors } = await openApp(browser, server.url, { locale: 'en-GB' });
  await paste(page, 'vllm serve Qwen/Qwen3-8B --max-model-len 16384 -tp 2');
  await page.getByTestId('paste-applied').waitFor();
  assert.equal(await page.getByTestId('method-vllm').getAttribute('aria-pressed'), 'true');
  await page.getByTestId('results-model').filter({ hasText: 'Qwen/Qwen3-8B' }).waitFor();
  assert.equal((await page.getByTestId('field-context').inputValue()).replace(/[^0-9]/g, ''), '16384');
  await page.getByTestId('advanced').locator('summary').click();
  assert.equal(await page.getByTestId('field-gpus').inputValue(), '2');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an unknown option is named, in Spanish, and the ring keeps its value', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await page.getByTestId('paste-command').waitFor();
  const ring = await page.getByTestId('ring-percent').innerText();
  const context = await page.getByTestId('field-context').inputValue();
  const method = await page.locator('[data-testid^=method-][aria-pressed=true]').getAttribute('data-testid');
  await paste(page, 'vllm serve Qwen/Qwen3-8B --frobnicate 3');
  const error = await page.getByTestId('paste-error').innerText();
  assert.match(error, /--frobnicate/);
  assert.match(error, /No se leyó el comando/);
  assert.equal(await page.getByTestId('ring-percent').innerText(), ring);
  assert.equal(await page.getByTestId('field-context').inputValue(), context);
  assert.equal(
    await page.locator('[data-testid^=method-][aria-pressed=true]').getAttribute('data-testid'),
    method,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [locale, line, said] of [
  ['es-ES', 'vllm serve Qwen/Qwen3-8B --cpu-offload-gb 4', /no está modelada: no se modelan los pesos descargados al host/],
  ['nl-NL', 'llama-server -m Qwen3-8B-Q4_K_M.gguf -ot exps=CPU', /wordt niet gemodelleerd: tensor-overrides worden niet gemodelleerd; gebruik --n-cpu-moe/],
  ['es-ES', 'vllm serve Qwen/Qwen3-8B --max-model-len lots', /--max-model-len lots: se esperaba un número de tokens/],
  ['nl-NL', 'vllm serve Qwen/Qwen3-8B --kv-cache-dtype int3', /verwacht auto, fp8, fp8_e4m3, fp8_e5m2 of bfloat16/],
]) {
  test(`${locale}: why "${line.split(' ').at(-2)}" is not read is said in the page's language`, async () => {
    const { page, errors } = await openApp(browser, server.url, { locale });
    await page.getByTestId('paste-command').waitFor();
    await paste(page, line);
    const error = await page.getByTestId('paste-error').innerText();
    assert.match(error, said);
    assert.doesNotMatch(error, /not modelled|expected| or /);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the command box is as wide as its column and holds two lines', async () => {
  const { page, errors } = await openApp(browser, server.url, { viewport: { width: 1280, height: 900 } });
  const box = page.getByTestId('paste-command');
  await box.waitFor();
  const form = await page.getByTestId('paste').boundingBox();
  const field = await box.boundingBox();
  const button = await page.getByTestId('paste-apply').boundingBox();
  assert.ok(field.width >= 0.6 * form.width, `field ${field.width} of ${form.width}`);
  assert.ok(field.height >= 40 && field.height <= 120, `height ${field.height}`);
  // The button on the field's line, at its end.
  assert.ok(button.x >= field.x + field.width, 'button after the field');
  assert.ok(button.y + button.height <= field.y + field.height + 1, 'button within the field\'s line');
  assert.deepEqual(errors, []);
  await page.close();
});
