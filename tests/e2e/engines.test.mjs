// The engine methods as a person uses them: a catalog model served with
// vLLM on an H100 (KV tokens, concurrency, the `vllm serve` line), then
// with llama.cpp from a GGUF type with -ngl (the GPU/host split, the
// `llama-server` line); each time the page's export is the CLI's document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, cliJson, exportJson, pickModel, useServerAndBrowser } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** The Spanish page's integer: `476 000` → 476000. */
const integer = (text) => Number(text.replace(/[^0-9]/g, ''));

test('vllm: a catalog model on an H100 gives KV tokens and the vllm serve line', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await pickModel(page, 'meta-llama/Llama-3.1-8B-Instruct');
  await page.getByTestId('model-summary').waitFor();
  await page.getByTestId('method-vllm').click();
  await page.getByTestId('gpu-select').fill('H100');
  await page.getByTestId('engine-gpu_memory_utilization').fill('0,95');
  const cli = cliJson([
    'meta-llama/Llama-3.1-8B-Instruct',
    '--method',
    'vllm',
    '--gpu',
    'H100',
    '--gpu-memory-utilization',
    '0.95',
  ]);
  const engine = cli.estimate.engine;
  await page.getByTestId('engine-command').filter({ hasText: '--gpu-memory-utilization 0.95' }).waitFor();
  assert.equal(await page.getByTestId('engine-panel').getAttribute('data-engine'), 'vllm');
  assert.match(await page.getByTestId('method-description').innerText(), /vLLM/);
  const tokens = integer(await page.getByTestId('engine-kv-tokens-value').innerText());
  assert.equal(tokens, engine.kv_cache_tokens);
  // vLLM 0.19's own log: 476,016 tokens at these settings (the newest
  // release, the default, sets 0.14 GiB of CUDA-graph estimate aside first).
  assert.ok(Math.abs(tokens / 476_016 - 1) < 0.03, `${tokens} tokens`);
  assert.equal(await page.getByTestId('engine-command').innerText(), engine.command);
  assert.equal(
    engine.command,
    'vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 --gpu-memory-utilization 0.95',
  );
  assert.ok(await page.getByTestId('engine-starts').isVisible());
  // The newest release sets its CUDA-graph estimate aside before the KV
  // cache: it is part of the total.
  const graphs = page.getByTestId('component-cuda_graphs');
  assert.equal(await graphs.getAttribute('data-bytes'), String(cli.estimate.components.cuda_graphs));
  assert.doesNotMatch(await graphs.innerText(), /fuera del total/);
  const { doc } = await exportJson(page);
  assert.deepEqual(doc, cli);
  // 0.19 captured them after the cache: listed apart, outside the total.
  await page.getByTestId('engine-vllm_version').selectOption('0.19');
  await graphs.filter({ hasText: 'fuera del total' }).waitFor();
  // A context the card cannot hold: vLLM's own error, and the ring says no.
  await page.getByTestId('gpu-select').fill('RTX 4090');
  await page.getByTestId('field-context').fill('131072');
  await page.getByTestId('engine-start-error').waitFor();
  assert.match(await page.getByTestId('engine-start-error').innerText(), /vLLM no arrancaría: To serve at least one request/);
  assert.equal(await page.getByTestId('utilization-ring').getAttribute('data-status'), 'no_cabe');
  assert.deepEqual(errors, []);
  await page.close();
});

test('llamacpp: a GGUF type and -ngl split the model between the GPU and the host', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await pickModel(page, 'meta-llama/Llama-3.1-8B');
  await page.getByTestId('model-summary').waitFor();
  await page.getByTestId('method-llamacpp').click();
  // The format picker offers the GGUF types; Q4_K_M until one is chosen.
  await page.getByTestId('gguf-type').waitFor();
  assert.equal(await page.getByTestId('gguf-q4_k_m').getAttribute('aria-pressed'), 'true');
  await page.getByTestId('gguf-iq4_xs').click();
  await page.getByTestId('engine-n_gpu_layers').fill('20');
  await page.getByTestId('engine-command').filter({ hasText: '-ngl 20' }).waitFor();
  const cli = cliJson(['meta-llama/Llama-3.1-8B', '--method', 'llamacpp', '--quant', 'iq4_xs', '--n-gpu-layers', '20']);
  const engine = cli.estimate.engine;
  assert.equal(await page.getByTestId('engine-layers-value').innerText(), '20 de 33');
  assert.equal(await page.getByTestId('engine-command').innerText(), engine.command);
  assert.match(engine.command, /^llama-server -m Llama-3\.1-8B-IQ4_XS\.gguf -c 8192 -ngl 20 /);
  // The host part is listed outside the ring's total.
  assert.equal(await page.getByTestId('component-host_part').getAttribute('data-bytes'), String(cli.estimate.components.host_part));
  assert.equal(engine.model_size_bytes, 4_476_526_848);
  const { doc } = await exportJson(page);
  assert.deepEqual(doc, cli);
  // Back to the other methods: the weight formats again.
  await page.getByTestId('method-range').click();
  await page.getByTestId('weight-format').waitFor();
  assert.equal(await page.getByTestId('gguf-type').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
