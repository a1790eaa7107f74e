// The engine plans' speed beside the ring (issue 20): decode as a band,
// prefill, the first token, what limits decode, and the layers llama.cpp
// runs from host memory, all read from the report's estimate.engine.speed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliJson, openApp, useServerAndBrowser } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** "12.3–45.6 tokens/s" → [12.3, 45.6] (the English page). */
const band = (text) => {
  const m = text.match(/^([\d,.]+)–([\d,.]+) tokens\/s$/);
  assert.ok(m, text);
  return [Number(m[1].replace(/,/g, '')), Number(m[2].replace(/,/g, ''))];
};

async function pick(page, query, id) {
  const combo = page.getByRole('combobox', { name: 'Model', exact: true });
  await combo.fill(query);
  await page.locator(`[data-testid=model-option][data-id="${id}"]`).waitFor();
  await combo.press('Enter');
}

test('llama.cpp on a 16 GB card: the speed beside the ring says the layers in host memory slow it', async () => {
  const { page, errors } = await openApp(browser, server.url, { locale: 'en-GB' });
  await pick(page, 'qwen3 30b a3b', 'Qwen/Qwen3-30B-A3B');
  await page.getByTestId('method-llamacpp').click();
  await page.getByTestId('gpu-select').fill('RTX 4060 Ti 16GB');
  await page.getByTestId('gguf-q4_k_m').click();
  await page.getByTestId('engine-panel').waitFor();
  const speed = page.getByTestId('engine-speed');
  await speed.waitFor();
  // The layers the panel puts in host memory are the ones the speed names.
  const host = await page.getByTestId('engine-offload').getAttribute('data-host-layers');
  assert.ok(Number(host) > 0, `host layers ${host}`);
  assert.equal(
    await page.getByTestId('engine-speed-host').innerText(),
    `Slower because ${host} layers run from host memory`,
  );
  const [low, high] = band(await page.getByTestId('engine-speed-decode').innerText());
  assert.ok(low > 0 && low <= high, `${low}–${high}`);
  assert.match(await page.getByTestId('engine-speed-limit').innerText(), /^Limited by /);
  // The speed stands in the results' head, beside the ring.
  assert.equal(await page.locator('.vf-results__head [data-testid=engine-speed]').count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('vLLM on an H100: a decode band, prefill and the first token, all on the GPU', async () => {
  const { page, errors } = await openApp(browser, server.url, { locale: 'en-GB' });
  await pick(page, 'llama 3.1 8b instruct', 'meta-llama/Llama-3.1-8B-Instruct');
  await page.getByTestId('method-vllm').click();
  await page.getByTestId('gpu-select').fill('H100');
  await page.getByTestId('engine-panel').waitFor();
  await page.getByTestId('engine-speed').waitFor();
  const [low, high] = band(await page.getByTestId('engine-speed-decode').innerText());
  // An 8B model in bf16 on an H100's ~3.35 TB/s decodes tens to a few
  // hundred tokens per second per sequence, never thousands.
  assert.ok(low >= 20 && high <= 1000, `${low}–${high}`);
  assert.match(await page.getByTestId('engine-speed-prefill').innerText(), /^[\d,.]+ tokens\/s$/);
  assert.match(await page.getByTestId('engine-speed-ttft').innerText(), /^[\d,.]+ s$/);
  assert.equal(await page.getByTestId('engine-speed-host').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('llama.cpp: a suggestion that moves experts or layers to the host says the decode speed it runs at', async () => {
  const { page, errors } = await openApp(browser, server.url, { locale: 'en-GB' });
  await pick(page, 'qwen3 30b a3b', 'Qwen/Qwen3-30B-A3B');
  await page.getByTestId('method-llamacpp').click();
  await page.getByTestId('gpu-select').fill('RTX 4080');
  await page.getByTestId('gguf-q4_k_m').click();
  await page.getByTestId('field-context').fill('16384');
  await page.getByTestId('engine-n_gpu_layers').fill('49');
  const cli = cliJson([
    'Qwen/Qwen3-30B-A3B', '--method', 'llamacpp', '--gpu', 'RTX 4080', '--quant', 'q4_k_m',
    '--seq', '16384', '--n-gpu-layers', '49',
  ]);
  const moves = cli.suggestions.filter((s) => ['cpu_moe', 'gpu_layers'].includes(s.change.knob));
  assert.ok(moves.length >= 2, JSON.stringify(cli.suggestions));
  for (const s of moves) {
    const item = page.locator(`[data-testid=suggestion][data-change="${s.change.knob}:${s.change.value}"]`);
    await item.waitFor();
    // The same figure as the CLI's JSON, through the page's number formatter.
    assert.equal(
      await item.getByTestId('suggestion-decode').innerText(),
      `${s.decode_tokens_per_s.toFixed(1)} tokens/s`,
    );
  }
  assert.deepEqual(errors, []);
  await page.close();
});
