// A real config.json of each model family, pasted as a person would: the
// figures on screen and the exported document are the CLI's for the same
// inputs (the CLI reads the same file as its MODEL argument).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, openApp, cliJson, esBytes, exportJson, useServerAndBrowser } from './helpers.mjs';

const CONFIGS = join(ROOT, 'crates', 'vramfit-core', 'data', 'configs');

/** family → a checked-in config of it. */
const FAMILIES = {
  llama: 'meta-llama__Llama-3.1-8B.json',
  mistral: 'mistralai__Mistral-7B-v0.3.json',
  qwen2: 'Qwen__Qwen2.5-7B.json',
  qwen3: 'Qwen__Qwen3-8B.json',
  gemma2: 'google__gemma-2-9b-it.json',
  gpt_oss: 'openai__gpt-oss-20b.json',
  deepseek: 'deepseek-ai__DeepSeek-V2-Lite.json',
  mixtral: 'mistralai__Mixtral-8x7B-v0.1.json',
  phi3: 'microsoft__Phi-3.5-mini-instruct.json',
  gemma3: 'google__gemma-3-1b-it.json',
};

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** Pastes a config and waits until the report describes it. */
async function paste(page, text) {
  await page.getByTestId('config-input').fill(text);
  await page.getByTestId('model-summary').waitFor();
}

/** The method the CLI picks for a model file at the default scenario. */
function defaultMethod(path) {
  return cliJson([path]).estimate.method;
}

/** Every figure on screen agrees with the CLI document. */
async function assertMatches(page, cli, label) {
  await page.getByTestId('total-memory').filter({ hasText: esBytes(cli.estimate.total_bytes) }).waitFor();
  const ring = page.getByTestId('utilization-ring');
  assert.equal(await ring.getAttribute('data-status'), cli.estimate.verdict.status, label);
  for (const [name, bytes] of Object.entries(cli.estimate.components)) {
    if (bytes === 0) continue;
    assert.equal(
      await page.getByTestId(`component-${name}`).getAttribute('data-bytes'),
      String(bytes),
      `${label}: ${name}`,
    );
  }
  for (const m of cli.methods) {
    assert.match(
      await page.getByTestId(`method-row-${m.method}`).innerText(),
      new RegExp(esBytes(m.total_bytes).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
      `${label}: ${m.method}`,
    );
  }
  assert.equal(await page.getByTestId('config-error').innerText(), '', label);
  const { doc } = await exportJson(page);
  assert.deepEqual(doc, cli, label);
}

for (const [family, file] of Object.entries(FAMILIES)) {
  test(`${family}: a pasted ${file} gives the CLI's figures`, async () => {
    const path = join(CONFIGS, file);
    const text = await readFile(path, 'utf8');
    const { page, errors } = await openApp(browser, server.url);
    await paste(page, text);
    // The app opens a real model on the method the CLI picks by default
    // (the planner where it applies).
    await assertMatches(page, cliJson([path]), family);
    // A different workload on the same model: still the CLI's.
    await page.getByTestId('field-context').fill('32768');
    await page.getByTestId('field-sequences').fill('4');
    await page.getByTestId('kv-dtype-fp8').click();
    await assertMatches(
      page,
      cliJson([path, '--method', defaultMethod(path), '--seq', '32768', '--sequences', '4', '--kv-bytes', '1']),
      `${family} 32K × 4, FP8 cache`,
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the allocator on a dense model and "as published" weights agree with the CLI', async () => {
  const llama = join(CONFIGS, FAMILIES.llama);
  const { page, errors } = await openApp(browser, server.url);
  await paste(page, await readFile(llama, 'utf8'));
  await page.getByTestId('method-allocator').click();
  await assertMatches(page, cliJson([llama, '--method', 'allocator']), 'allocator');
  const oss = join(CONFIGS, FAMILIES.gpt_oss);
  await paste(page, await readFile(oss, 'utf8'));
  await page.getByTestId('method-quick').click();
  await page.getByTestId('weight-format-as_published').click();
  await assertMatches(page, cliJson([oss, '--method', 'quick', '--quant', 'as_published']), 'as published');
  // A catalog GPU picked by its short name is the CLI's --gpu.
  await page.getByTestId('gpu-select').fill('H100');
  await assertMatches(
    page,
    cliJson([oss, '--method', 'quick', '--quant', 'as_published', '--gpu', 'NVIDIA H100 SXM5']),
    'H100',
  );
  assert.deepEqual(errors, []);
  await page.close();
});
