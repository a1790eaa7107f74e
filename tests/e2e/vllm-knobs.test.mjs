// vLLM's release and the user's own start-up log as a person uses them:
// pick a release and the KV cache changes; paste a log (an A100 run of
// vLLM 0.26, `fixtures/vllm-0.26-a100.log`) and its figures stand beside
// the prediction, the estimate uses the fitted terms and the export and
// the share link carry them; paste anything else and the missing line is
// named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openApp, exportJson, pickModel, useServerAndBrowser } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const integer = (text) => Number(text.replace(/[^0-9]/g, ''));
const LOG = new URL('./fixtures/vllm-0.26-a100.log', import.meta.url);

async function vllmOnA100(page) {
  await pickModel(page, 'Qwen/Qwen3-30B-A3B');
  await page.getByTestId('model-summary').waitFor();
  await page.getByTestId('method-vllm').click();
  await page.getByTestId('gpu-select').fill('A100 80GB SXM4');
  await page.getByTestId('field-context').fill('32768');
  await page.getByTestId('engine-vllm_version').waitFor();
}

test('vllm: the release is a knob, the default stated beside it', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await vllmOnA100(page);
  const picker = page.getByTestId('engine-vllm_version');
  assert.equal(await picker.inputValue(), '');
  assert.match(await picker.locator('option').first().innerText(), /0\.33/);
  // Every family of the core's table, 0.8 to the newest.
  const families = await picker.locator('option').evaluateAll((o) => o.map((x) => x.value));
  assert.ok(families.includes('0.8') && families.includes('0.33'), families.join(' '));
  const tokens = page.getByTestId('engine-kv-tokens-value');
  await tokens.waitFor();
  const before = integer(await tokens.innerText());
  const first = await exportJson(page);
  // Not typed, the utilization is the release's: 0.92 on the newest.
  assert.equal(first.doc.inputs.engine?.gpu_memory_utilization, undefined);
  assert.equal(first.doc.estimate.engine.gpu_memory_utilization, 0.92);
  assert.equal(first.doc.estimate.engine.vllm_version, '0.33.0');
  // 0.19 runs at its own 0.9 (1.58 GiB less of the A100's 79.25) and
  // captures its CUDA graphs after the KV cache, not set aside before it.
  await picker.selectOption('0.19');
  await page.waitForFunction(
    (b) => Number(document.querySelector('[data-testid="engine-kv-tokens-value"]').innerText.replace(/[^0-9]/g, '')) !== b,
    before,
  );
  const after = integer(await tokens.innerText());
  assert.ok(after < before, `${before} → ${after}`);
  // The empty field says what vLLM ran at; an A100 keeps the small batch
  // limits whatever its memory.
  const placeholder = (key) => page.getByTestId(`engine-${key}`).getAttribute('placeholder');
  assert.equal(await placeholder('gpu_memory_utilization'), 'auto (0,9)');
  assert.equal(await placeholder('max_num_seqs'), 'auto (256)');
  const { doc } = await exportJson(page);
  assert.equal(doc.inputs.engine.gpu_memory_utilization, undefined);
  assert.equal(doc.estimate.engine.gpu_memory_utilization, 0.9);
  assert.equal(doc.inputs.engine.vllm_version, '0.19.0');
  assert.equal(doc.estimate.engine.vllm_version, '0.19.0');
  // The link goes with the share link too.
  await page.getByTestId('engine-interconnect').selectOption('pcie');
  const again = await exportJson(page);
  assert.equal(again.doc.inputs.engine.interconnect, 'pcie');
  assert.deepEqual(errors, []);
  await page.close();
});

test('vllm: a pasted start-up log calibrates the estimate; garbage names the missing line', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await vllmOnA100(page);
  const field = page.getByTestId('engine-calibrate-log');
  await field.fill(await readFile(LOG, 'utf8'));
  await page.getByTestId('calibrate-table').waitFor();
  const row = (figure) => page.locator(`[data-testid="calibrate-row"][data-figure="${figure}"]`);
  assert.match(await row('kv_cache_memory').getByTestId('calibrate-logged').innerText(), /13,84 GiB/);
  assert.match(await row('weights').getByTestId('calibrate-logged').innerText(), /56,93 GiB/);
  assert.match(await row('kv_cache_tokens').getByTestId('calibrate-logged').innerText(), /151.?216/);
  assert.match(await page.getByTestId('calibrate-release').innerText(), /0\.26\.1/);
  assert.match(await page.getByTestId('calibrate-applied').innerText(), /Calibrado con tu registro \(memoria fuera de PyTorch/);
  // The log's release is the scenario's, and the estimate says it is calibrated.
  assert.equal(await page.getByTestId('engine-vllm_version').inputValue(), '0.26');
  const { doc } = await exportJson(page);
  assert.equal(doc.inputs.engine.vllm_calibration.graph_estimate_bytes, 161_061_274);
  assert.equal(doc.estimate.engine.runtime.terms.provenance, 'calibrated');
  // The address carries the fit, the release and the link: the same document reopened.
  assert.match(page.url(), /#s=/);
  const { page: other } = await openApp(browser, page.url());
  await other.getByTestId('model-summary').waitFor();
  await other.getByTestId('engine-kv-tokens-value').waitFor();
  const { doc: reopened } = await exportJson(other);
  assert.deepEqual(reopened.inputs, doc.inputs);
  assert.deepEqual(reopened.estimate, doc.estimate);
  await other.close();
  // Something that is not a start-up log: the line it lacks, named.
  await field.fill('hello, this is not a log');
  const error = page.getByTestId('calibrate-error');
  await error.waitFor();
  assert.match(await error.innerText(), /Model loading took/);
  assert.match(await error.innerText(), /pesos/);
  assert.equal(await page.getByTestId('calibrate-applied').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
