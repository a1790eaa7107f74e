// Bad input of every kind: each is explained where it was typed, and the
// last good result stays on screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, useServerAndBrowser } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

test('bad numbers: empty, negative, huge, non-numeric, fractional', async () => {
  const { page, errors } = await openApp(browser, server.url);
  const cases = [
    ['context', '', 'Escribe un número.'],
    ['context', '-5', 'Debe estar entre 1 y 100\u202f000\u202f000.'],
    ['context', '1e12', 'Debe estar entre 1 y 100\u202f000\u202f000.'],
    ['context', 'mucho', 'No es un número.'],
    ['context', '8192.5', 'Debe ser un número entero.'],
    ['params_b', 'NaN', 'No es un número.'],
    ['params_b', 'Infinity', 'No es un número.'],
    ['params_b', '999999999', 'Debe estar entre 0,001 y 100\u202f000.'],
    ['gpu_memory_gb', '0', 'Debe estar entre 0,001 y 1\u202f000\u202f000.'],
    ['overhead_pct', '-1', 'Debe estar entre 0 y 1000.'],
    ['sequences', '1,5', 'Debe ser un número entero.'],
  ];
  for (const [field, text, message] of cases) {
    await page.getByTestId(`field-${field}`).fill(text);
    await page.getByTestId(`hint-${field}`).filter({ hasText: message }).waitFor();
    assert.equal(await page.getByTestId(`field-${field}`).getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByTestId('total-memory').innerText(), '18,78 GB', `${field}=${text}`);
    // Put it back before the next case.
    const good = { context: '8192', params_b: '8', gpu_memory_gb: '24', overhead_pct: '10', sequences: '1' }[field];
    await page.getByTestId(`field-${field}`).fill(good);
    await page.getByTestId(`hint-${field}`).filter({ hasNotText: '⚠' }).waitFor();
  }
  // Spaces and a decimal comma are fine.
  await page.getByTestId('field-context').fill(' 16 384 ');
  await page.getByTestId('total-memory').filter({ hasText: '19,96 GB' }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('a broken config.json is explained; clearing it goes back to typed numbers', async () => {
  const { page, errors } = await openApp(browser, server.url);
  const config = page.getByTestId('config-input');
  const problem = page.getByTestId('config-error');
  const cases = [
    ['{"model_type": "llama", "hidden_size": 4096', /no es JSON válido \(línea 1/],
    ['garbage', /no es JSON válido/],
    ['[1, 2, 3]', /no es un objeto JSON/],
    ['{"model_type": "llama"}', /faltan claves: .*hidden_size/],
    [
      '{"model_type": "llama", "hidden_size": "big", "num_hidden_layers": 32, "num_attention_heads": 32, "intermediate_size": 14336, "vocab_size": 128256}',
      /hidden_size debería ser de tipo integer/,
    ],
    [
      '{"model_type": "llama", "hidden_size": -4096, "num_hidden_layers": 32, "num_attention_heads": 32, "intermediate_size": 14336, "vocab_size": 128256}',
      /hidden_size = -4096 está fuera de rango/,
    ],
  ];
  for (const [text, message] of cases) {
    await config.fill(text);
    await problem.filter({ hasText: message }).waitFor();
    assert.equal(await page.getByTestId('total-memory').innerText(), '18,78 GB');
  }
  await config.fill('');
  await page.getByTestId('field-layers').waitFor();
  assert.equal(await problem.innerText(), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a GPU name typed before the engine has come is looked up when it comes, and a miss keeps its text', async () => {
  const page = await browser.newPage({ locale: 'es-ES' });
  // The engine's chunk arrives late, as on a slow line.
  await page.route(/_split_details\.wasm$/, async (route) => {
    await new Promise((ok) => setTimeout(ok, 2000));
    await route.continue();
  });
  await page.goto(server.url);
  await page.getByTestId('total-memory').waitFor();
  await page.getByTestId('gpu-select').fill('RTX 4909');
  await page.getByTestId('gpu-hint').filter({ hasText: '¿Quizá NVIDIA GeForce RTX 4090' }).waitFor();
  assert.equal(await page.getByTestId('gpu-select').inputValue(), 'RTX 4909');
  await page.close();
});

test('an unknown catalog GPU is explained with suggestions', async () => {
  const { page } = await openApp(browser, server.url);
  await page.getByTestId('gpu-select').fill('RTX 4909');
  await page.getByTestId('gpu-hint').filter({ hasText: '¿Quizá NVIDIA GeForce RTX 4090' }).waitFor();
  assert.equal(await page.getByTestId('gpu-select').getAttribute('aria-invalid'), 'true');
  assert.equal(await page.getByTestId('total-memory').innerText(), '18,78 GB');
  await page.getByTestId('gpu-select').fill('4090');
  await page.getByTestId('gpu-hint').filter({ hasNotText: 'Quizá' }).waitFor();
  // The card's memory as its driver reports it: 24,564 MiB = 25.757220864 GB,
  // read rounded, the exact figure in the tooltip.
  const memory = page.getByTestId('field-gpu_memory_gb');
  assert.equal(await memory.inputValue(), '25,76');
  assert.equal(await memory.getAttribute('title'), '25,757220864');
  await page.close();
});
