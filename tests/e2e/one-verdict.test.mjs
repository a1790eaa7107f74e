// One verdict on the page for a partially offloaded llama.cpp plan:
// Qwen3-30B-A3B in Q4_K_M on a 16 GB card, where llama.cpp puts 40 of its
// 49 layers on the GPU. The ring, the compact bar and the engine panel read
// the one report, and the layers in host memory are said beside the ring.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, cliJson, useServerAndBrowser } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const MODEL = 'Qwen/Qwen3-30B-A3B';
const GPU = 'RTX 5080';

/** The page on the scenario, picked as a person would, in English. */
async function offloaded(viewport) {
  const { page, errors } = await openApp(browser, server.url, { viewport, locale: 'en-GB' });
  const combo = page.getByRole('combobox', { name: 'Model', exact: true });
  await combo.fill('qwen3 30b a3b');
  await page.locator(`[data-testid=model-option][data-id="${MODEL}"]`).waitFor();
  await combo.press('Enter');
  await page.getByTestId('method-llamacpp').click();
  await page.getByTestId('gpu-select').fill(GPU);
  await page.getByTestId('gguf-q4_k_m').click();
  await page.getByTestId('engine-panel').waitFor();
  return { page, errors };
}

test('the ring, the compact bar and the engine panel read one plan', async () => {
  const { page, errors } = await offloaded({ width: 390, height: 844 });
  const cli = cliJson([MODEL, '--method', 'llamacpp', '--gpu', GPU, '--quant', 'q4_k_m']);
  const { gpu_layers: onGpu, layers_total: total } = cli.estimate.engine;
  // The page's one verdict is the report's.
  const ring = await page.getByTestId('utilization-ring').getAttribute('data-status');
  assert.equal(ring, cli.estimate.verdict.status);
  assert.equal(await page.getByTestId('compact-bar').getAttribute('data-status'), ring);
  // The panel's split is the report's, and the layers in host memory are
  // said beside the ring and in the panel alike.
  assert.equal(await page.getByTestId('engine-layers-value').innerText(), `${onGpu} of ${total}`);
  assert.ok(onGpu < total, `${onGpu} of ${total}: the scenario no longer offloads`);
  const host = total - onGpu;
  assert.equal(
    await page.getByTestId('results-offload').innerText(),
    `Partly offloaded: ${host} of ${total} layers run from host memory.`,
  );
  assert.equal(await page.getByTestId('engine-offload').getAttribute('data-host-layers'), String(host));
  assert.deepEqual(errors, []);
  await page.close();
});

// The core's llama.cpp plan makes the report's verdict the split's: the
// ring counts the GPU side of the split the panel shows, so a plan whose
// context fits is never "does not fit".
test('a plan that fits its context is not "does not fit"', async () => {
  const { page } = await offloaded({ width: 1280, height: 900 });
  const longest = await page.getByTestId('engine-longest-fit-value').innerText();
  const fits = /\d/.test(longest) && Number(longest.replace(/[^0-9]/g, '')) >= 8192;
  const ring = await page.getByTestId('utilization-ring').getAttribute('data-status');
  assert.ok(!fits || ring !== 'no_cabe', `panel fits ${longest}, ring says ${ring}`);
  await page.close();
});
