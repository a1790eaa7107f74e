// The first screen: what to run and where. The model is a searchable
// combobox in the first viewport on a desktop and on a phone (type, move
// with the arrow keys, pick with Enter); what runs it comes next; and the
// phone page never pans sideways, in any language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, pickModel, useServerAndBrowser } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** Whether the element is wholly inside the first viewport (no scrolling). */
async function inFirstViewport(page, locator) {
  const box = await locator.boundingBox();
  const { width, height } = page.viewportSize();
  return box !== null && box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height;
}

for (const [name, options] of [['desktop 1280×900', DESKTOP], ['phone 390×844', PHONE]]) {
  test(`${name}: the model and GPU pickers are on the first screen`, async () => {
    const { page, errors } = await openApp(browser, server.url, options);
    const combo = page.getByRole('combobox', { name: 'Modelo', exact: true });
    assert.equal(await combo.getAttribute('data-testid'), 'model-search');
    assert.ok(await inFirstViewport(page, combo), 'model field in the first viewport');
    assert.ok(await inFirstViewport(page, page.getByTestId('gpu-select')), 'GPU field in the first viewport');
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('type "qwen3 30b", move with the arrows, pick with Enter', async () => {
  const { page, errors } = await openApp(browser, server.url, { ...DESKTOP, locale: 'en-GB' });
  const combo = page.getByRole('combobox', { name: 'Model', exact: true });
  assert.equal(await combo.getAttribute('aria-expanded'), 'false');
  await combo.click();
  await combo.fill('qwen3 30b');
  const list = page.getByRole('listbox');
  await list.waitFor();
  assert.equal(await combo.getAttribute('aria-expanded'), 'true');
  assert.equal(await combo.getAttribute('aria-controls'), await list.getAttribute('id'));
  const options = list.getByRole('option');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=model-option]').length > 0);
  const ids = await options.evaluateAll((os) => os.map((o) => o.dataset.id));
  assert.ok(ids.length >= 2, ids.join(' '));
  for (const id of ids) assert.match(id, /qwen3.*30b/i);
  // The base model first, then its variants.
  assert.equal(ids[0], 'Qwen/Qwen3-30B-A3B');
  // The first option is active; the arrows move, and the field says which.
  assert.equal(await options.nth(0).getAttribute('aria-selected'), 'true');
  await combo.press('ArrowDown');
  assert.equal(await options.nth(1).getAttribute('aria-selected'), 'true');
  assert.equal(await options.nth(0).getAttribute('aria-selected'), 'false');
  assert.equal(await combo.getAttribute('aria-activedescendant'), await options.nth(1).getAttribute('id'));
  await combo.press('ArrowUp');
  assert.equal(await combo.getAttribute('aria-activedescendant'), await options.nth(0).getAttribute('id'));
  await combo.press('Enter');
  assert.equal(await combo.getAttribute('aria-expanded'), 'false');
  assert.equal(await combo.inputValue(), 'Qwen/Qwen3-30B-A3B');
  await page.getByTestId('results-model').filter({ hasText: 'Qwen/Qwen3-30B-A3B' }).waitFor();
  // Escape leaves the choice as it was; a word that matches nothing says so.
  await combo.fill('no such model xyz');
  await page.getByTestId('model-none').waitFor();
  assert.equal(await options.count(), 1);
  await combo.press('Escape');
  assert.equal(await combo.inputValue(), 'Qwen/Qwen3-30B-A3B');
  // A click on an option picks it too.
  await combo.fill('llama 3.1 8b instruct');
  await options.first().click();
  assert.equal(await combo.inputValue(), 'meta-llama/Llama-3.1-8B-Instruct');
  assert.deepEqual(errors, []);
  await page.close();
});

test('what runs it: the engines first, the seeds’ methods as other estimates', async () => {
  const { page, errors } = await openApp(browser, server.url, { ...DESKTOP, locale: 'en-GB' });
  const engines = page.getByRole('group', { name: 'What runs it' });
  assert.deepEqual(
    await engines.getByRole('button').allInnerTexts(),
    ['vLLM', 'llama.cpp', 'PyTorch / transformers'],
  );
  const other = page.getByTestId('other-estimates');
  assert.deepEqual(
    await other.getByRole('button').allInnerTexts(),
    ['Rule of thumb', 'Step by step (the course)', 'Low–high range', 'Deployment plan'],
  );
  // The arrow keys move within a group of buttons.
  await page.getByTestId('method-quick').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'method-lesson');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'method-quick');
  // Home and End go to the group's first and last button.
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'method-planner');
  await page.keyboard.press('Home');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'method-quick');
  await page.getByTestId('mode-inference').focus();
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'mode-qlora');
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [lang, locale] of [['es', 'es-ES'], ['en', 'en-GB'], ['nl', 'nl-NL']]) {
  test(`${lang} at 390×844: the page never pans sideways`, async () => {
    const { page, errors } = await openApp(browser, server.url, { ...PHONE, locale });
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    // The defaults, every panel loaded (the lesson, the methods table).
    await page.getByTestId('lesson-panel').waitFor();
    await page.getByTestId('methods-table').waitFor();
    console.log(`figure: ${lang} at 390 px: default page ${await overflow()} px wider than the screen`);
    assert.ok((await overflow()) <= 0, `default page ${await overflow()} px too wide`);
    // A real model, an engine, its table and its command.
    const combo = page.getByTestId('model-search');
    await combo.fill('qwen3 30b a3b');
    await page.locator('[data-testid=model-option][data-id="Qwen/Qwen3-30B-A3B"]').waitFor();
    await combo.press('Enter');
    await page.getByTestId('results-model').filter({ hasText: 'Qwen/Qwen3-30B-A3B' }).waitFor();
    await page.getByTestId('gpu-select').fill('RTX 4090');
    await page.getByTestId('method-llamacpp').click();
    await page.getByTestId('engine-panel').waitFor();
    // The speed beside the ring and its chart below the results.
    await page.getByTestId('speed-chart').waitFor();
    await page.getByTestId('speed-chart').locator('summary').click();
    console.log(`figure: ${lang} at 390 px: llama.cpp ${await overflow()} px`);
    assert.ok((await overflow()) <= 0, `llama.cpp ${await overflow()} px too wide`);
    await page.getByTestId('method-vllm').click();
    await page.getByTestId('engine-panel').waitFor();
    await page.getByTestId('engine-speed-output').waitFor();
    await page.getByTestId('speed-chart').waitFor();
    console.log(`figure: ${lang} at 390 px: vLLM ${await overflow()} px`);
    assert.ok((await overflow()) <= 0, `vLLM ${await overflow()} px too wide`);
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'scrollWidth <= innerWidth',
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a copied link reopens the scenario in its unit and language', async () => {
  const { page, errors } = await openApp(browser, server.url, DESKTOP);
  await page.getByTestId('unit-gib').click();
  await page.getByTestId('lang-nl').click();
  await page.getByTestId('total-memory').filter({ hasText: 'GiB' }).waitFor();
  await page.waitForFunction(() => location.hash.includes('&l=nl'));
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /^#s=[A-Za-z0-9_-]+&u=gib&l=nl$/);
  // Opened where the language stored is another one, the link's holds.
  const again = await openApp(browser, `${server.url}${hash}`, { ...DESKTOP, locale: 'es-ES' });
  assert.equal(await again.page.getByTestId('unit-gib').getAttribute('aria-pressed'), 'true');
  assert.equal(await again.page.evaluate(() => document.documentElement.lang), 'nl');
  assert.match(await again.page.getByTestId('total-memory').innerText(), /GiB/);
  assert.deepEqual([...errors, ...again.errors], []);
  await again.page.close();
  await page.close();
});

test('training starts with gradient checkpointing on, as TRL\'s SFTTrainer does, and says so', async () => {
  const { page, errors } = await openApp(browser, server.url, { ...DESKTOP, locale: 'en-GB' });
  await pickModel(page, 'meta-llama/Llama-3.1-8B');
  await page.getByTestId('mode-lora').click();
  await page.getByTestId('method-allocator').click();
  const box = page.getByTestId('grad-checkpoint');
  await box.waitFor();
  assert.equal(await box.isChecked(), true);
  assert.match(await page.getByTestId('grad-checkpoint-default').innerText(), /TRL's SFTTrainer \(SFTConfig\).*transformers' plain Trainer leaves it off/);
  // A choice made while training stays across training modes.
  await box.uncheck();
  await page.getByTestId('mode-full').click();
  await page.getByTestId('method-allocator').click();
  assert.equal(await page.getByTestId('grad-checkpoint').isChecked(), false);
  // Back from inference, the trainer's default again.
  await page.getByTestId('mode-inference').click();
  await page.getByTestId('mode-lora').click();
  await page.getByTestId('method-allocator').click();
  assert.equal(await page.getByTestId('grad-checkpoint').isChecked(), true);
  assert.deepEqual(errors, []);
  await page.close();
});
