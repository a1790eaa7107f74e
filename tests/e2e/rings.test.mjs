// Each ring state in turn, by changing the GPU memory under the default
// 18.78 GB estimate: the state word, its shape and the true percentage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, useServerAndBrowser } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

// GPU GB → (status, aria-valuenow, words on screen)
const STEPS = [
  ['40', 'holgada', '47', /●\s*holgada/, /sobran 21,22 GB/],
  ['31.302', 'holgada', '60', /●\s*holgada/, /sobran/],
  ['31.3', 'con_margen', '60', /◐\s*con margen/, /sobran/],
  ['24', 'con_margen', '78.3', /◐\s*con margen/, /sobran 5,22 GB/],
  ['22.1', 'con_margen', '85', /◐\s*con margen/, /sobran/],
  ['22.09', 'ajustada', '85', /▲\s*ajustada/, /sobran/],
  ['22', 'ajustada', '85.4', /▲\s*ajustada/, /sobran/],
  ['18.79', 'ajustada', '100', /▲\s*ajustada/, /sobran 0,01 GB/],
  // 100.006 %: a figure that does not fit never reads 100 %.
  ['18.78', 'no_cabe', '100.1', /✕\s*no cabe/, /faltan 0,00 GB/],
  ['12', 'no_cabe', '156.5', /✕\s*no cabe/, /faltan 6,78 GB/],
];

test('the ring crosses every threshold with its word, shape and unclamped value', async () => {
  const { page, errors } = await openApp(browser, server.url);
  const ring = page.getByTestId('utilization-ring');
  const memory = page.getByTestId('field-gpu_memory_gb');
  for (const [gb, status, valuenow, word, detail] of STEPS) {
    await memory.fill(gb);
    await page.waitForFunction(
      ([v]) => document.querySelector('[data-testid=utilization-ring]').getAttribute('aria-valuenow') === v,
      [valuenow],
    );
    assert.equal(await ring.getAttribute('data-status'), status, `${gb} GB`);
    assert.match(await page.getByTestId('ring-status').innerText(), word, `${gb} GB`);
    assert.match(await page.getByTestId('ring-detail').innerText(), detail, `${gb} GB`);
    assert.match(await ring.getAttribute('aria-valuetext'), new RegExp(`no cabe|holgada|con margen|ajustada`));
    // The compact bar (phones) follows the same verdict.
    assert.equal(await page.getByTestId('compact-bar').getAttribute('data-status'), status);
  }
  // Over 100 %: the second, darker lap is drawn.
  const overflow = await page.locator('.vf-ring__overflow').getAttribute('stroke-dasharray');
  assert.ok(parseFloat(overflow) > 0, overflow);
  assert.deepEqual(errors, []);
  await page.close();
});
