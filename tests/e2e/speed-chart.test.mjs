// Decode speed against context for the engine plan (issue 20), drawn from
// the core's speed model over the same plan, and vLLM's figures at the
// scenario's sequences at once beside the ring.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, useServerAndBrowser } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function pick(page, query, id) {
  const combo = page.getByRole('combobox', { name: 'Model', exact: true });
  await combo.fill(query);
  await page.locator(`[data-testid=model-option][data-id="${id}"]`).waitFor();
  await combo.press('Enter');
}

/** "1,234.5 tokens/s" → 1234.5 (the English page). */
const tokens = (text) => {
  const m = text.match(/^([\d,.]+) tokens\/s$/);
  assert.ok(m, text);
  return Number(m[1].replace(/,/g, ''));
};

/** The chart's table: [context, tokens/s] per row, in order. */
const rows = (page) =>
  page
    .locator('[data-testid=speed-chart-table] tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [Number(tr.dataset.context), Number(tr.dataset.tokensPerS)]));

async function sequences(page, n) {
  const field = page.getByTestId('field-sequences');
  if (!(await field.isVisible())) await page.getByTestId('advanced').locator('summary').click();
  await field.fill(String(n));
}

test('llama.cpp: decode falls with the context up to the context set, which is marked', async () => {
  const { page, errors } = await openApp(browser, server.url, { locale: 'en-GB' });
  await pick(page, 'llama 3.1 8b', 'meta-llama/Llama-3.1-8B');
  await page.getByTestId('method-llamacpp').click();
  await page.getByTestId('gpu-select').fill('RTX 4090');
  await page.getByTestId('field-context').fill('32768');
  const chart = page.getByTestId('speed-chart');
  await chart.waitFor();
  await page.getByTestId('speed-chart-current').and(page.locator('[data-context="32768"]')).waitFor();
  const points = await rows(page);
  assert.ok(points.length >= 8, `${points.length} points`);
  assert.equal(points[0][0], 128);
  assert.equal(points.at(-1)[0], 32768);
  for (let i = 1; i < points.length; i++) {
    assert.ok(points[i][0] > points[i - 1][0], 'contexts increase');
    assert.ok(points[i][1] < points[i - 1][1], `decode falls: ${points[i - 1]} → ${points[i]}`);
  }
  // The last point is the figure the engine gives at the end of the context.
  const atContext = await page.getByTestId('speed-decode-at-context').innerText();
  const m = atContext.match(/^([\d,.]+)–([\d,.]+) tokens\/s$/);
  assert.ok(m, atContext);
  const [low, high] = [Number(m[1].replace(/,/g, '')), Number(m[2].replace(/,/g, ''))];
  assert.ok(low <= points.at(-1)[1] + 0.05 && points.at(-1)[1] <= high + 0.05, `${points.at(-1)[1]} in ${low}–${high}`);
  // Said in words and named for assistive technology.
  assert.match(await page.getByTestId('speed-chart-sentence').innerText(), /with 128 tokens in its cache .* at 32,768, the context set/);
  const labelled = await chart.locator('svg').getAttribute('aria-labelledby');
  assert.equal(labelled, 'vf-speed-chart-title vf-speed-chart-sentence');
  // Another method: no engine plan, no chart.
  await page.getByTestId('method-quick').click();
  await page.getByTestId('speed-none').waitFor();
  assert.equal(await chart.count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('vLLM at 8 sequences at once: each decodes slower than one alone, all together far faster', async () => {
  const { page, errors } = await openApp(browser, server.url, { locale: 'en-GB' });
  await pick(page, 'llama 3.1 8b instruct', 'meta-llama/Llama-3.1-8B-Instruct');
  await page.getByTestId('method-vllm').click();
  await page.getByTestId('gpu-select').fill('H100');
  await sequences(page, 8);
  await page.getByTestId('engine-speed-each').waitFor();
  const speed = page.getByTestId('engine-speed');
  assert.match(await speed.innerText(), /Decode, one request alone/);
  assert.match(await speed.innerText(), /Decode per request, 8 at once/);
  assert.match(await speed.innerText(), /Output, all 8 requests together/);
  const alone = (await page.getByTestId('engine-speed-decode').innerText()).match(/^([\d,.]+)–([\d,.]+)/);
  const aloneHigh = Number(alone[2].replace(/,/g, ''));
  const each = tokens(await page.getByTestId('engine-speed-each').innerText());
  const output = tokens(await page.getByTestId('engine-speed-output').innerText());
  assert.ok(each > 0 && each < aloneHigh, `each ${each}, alone up to ${aloneHigh}`);
  // Output is the eight requests' decode together (rounding aside).
  assert.ok(Math.abs(output - 8 * each) <= 0.02 * output + 4, `output ${output} vs 8 × ${each}`);
  assert.match(await page.getByTestId('engine-speed-ttft').innerText(), /^[\d,.]+ s$/);
  // The chart is one request's decode against context.
  await page.getByTestId('speed-chart').waitFor();
  const points = await rows(page);
  assert.ok(points.at(-1)[1] < points[0][1]);
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [lang, locale, title] of [
  ['es', 'es-ES', 'Velocidad de generación según el contexto'],
  ['nl', 'nl-NL', 'Generatiesnelheid tegen de context'],
]) {
  test(`${lang}: the chart and vLLM's figures speak the page's language`, async () => {
    const { page, errors } = await openApp(browser, server.url, { locale });
    const combo = page.getByTestId('model-search');
    await combo.fill('qwen3 8b');
    await page.locator('[data-testid=model-option][data-id="Qwen/Qwen3-8B"]').waitFor();
    await combo.press('Enter');
    await page.getByTestId('method-vllm').click();
    await page.getByTestId('gpu-select').fill('H100');
    await sequences(page, 4);
    await page.getByTestId('engine-speed-output').waitFor();
    await page.getByTestId('speed-chart').waitFor();
    assert.equal(await page.getByTestId('speed-chart').locator('h3').innerText(), title);
    assert.doesNotMatch(await page.getByTestId('engine-speed').innerText(), /request|at once/);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
