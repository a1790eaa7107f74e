// The lesson on the release build, as a student follows it: each method's
// lesson starts on a fitting catalog model, a blind prediction takes every
// figure of the scenario off the page until it is revealed, every term is
// derived, the methodology is read in the page (no link into the
// repository), and a reload keeps the contract's ticks and the drafts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser } from './helpers.mjs';

const KEY = 'vramfit.notebook.v1';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function open(context) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(new Error(m.text()));
  });
  await page.goto(server.url);
  await ready(page);
  return { page, errors };
}

async function ready(page) {
  await page.getByTestId('total-memory').waitFor();
  await page.getByTestId('lesson-panel').waitFor();
}

/** The rendered text of every element of the page that shows results. */
const resultsText = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.vf-results, .vf-more > section, [data-testid="compact-bar"]')]
      .map((e) => e.innerText)
      .join('\n'),
  );

test('a blind prediction hides every figure of the scenario on the page until it is revealed', async () => {
  const context = await browser.newContext({ locale: 'es-ES' });
  const { page, errors } = await open(context);
  const total = await page.getByTestId('total-memory').innerText();
  assert.match(total, /^18,78 GB/);
  // The scenario's figures as the page writes them.
  const figures = [
    '18,78',
    '17,49',
    '16,00',
    '1,07',
    '1,71',
    '78,3',
    ...(await page.getByTestId('breakdown').locator('td.vf-num').allInnerTexts()).map((t) => t.split(' ')[0]),
  ];
  await page.getByTestId('lesson-predict-start').click();
  await page.getByTestId('veiled-results').waitFor();
  for (const gone of ['utilization-ring', 'total-memory', 'breakdown', 'methods-table', 'context-chart', 'speed-panel', 'answers']) {
    assert.equal(await page.getByTestId(gone).count(), 0, `${gone} is off the page`);
  }
  const veiled = await resultsText(page);
  for (const figure of figures) {
    assert.ok(!veiled.includes(figure), `${figure} visible before the reveal:\n${veiled}`);
  }
  // The phone's bar too.
  await page.setViewportSize({ width: 390, height: 800 });
  assert.equal(await page.getByTestId('compact-bar').count(), 0);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByTestId('lesson-prediction').fill('19');
  await page.getByTestId('lesson-reveal').click();
  await page.getByTestId('total-memory').waitFor();
  assert.equal(await page.getByTestId('veiled-results').count(), 0);
  assert.match(await page.getByTestId('lesson-observed').innerText(), /^18,78 GB/);
  assert.match(await page.getByTestId('lesson-discrepancy').innerText(), /^\+0,22 GB/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('each method starts on a fitting model, derives every term, reads its methodology in the page, and a reload keeps the progress', async () => {
  const context = await browser.newContext({ locale: 'nl-NL' });
  const { page, errors } = await open(context);
  for (const method of ['quick', 'lesson', 'range', 'planner', 'allocator']) {
    await page.getByTestId(`method-${method}`).click();
    await page.getByTestId('lesson-start-load').click();
    await page.getByTestId('lesson-predict-pending').waitFor();
    await page.getByTestId('lesson-prediction').fill('20,5');
    await page.getByTestId('lesson-reveal').click();
    await page.getByTestId('lesson-result').waitFor();
    assert.match(await page.getByTestId('lesson-predicted').innerText(), /^20,50 GB/);
    const rows = page.locator('tr[data-testid^="lesson-term-"]');
    const n = await rows.count();
    assert.ok(n >= 2, `${method}: ${n} terms`);
    for (let i = 0; i < n; i += 1) {
      const row = rows.nth(i);
      assert.match(await row.getByTestId('lesson-term-formula').innerText(), /=/, method);
      assert.match(await row.getByTestId('lesson-term-substituted').innerText(), /\d.* B$/, method);
    }
  }
  // The methodology, in the page: the range page, fetched from the site.
  await page.getByTestId('methodology-doc-range').click();
  await page.getByTestId('methodology-page').waitFor();
  const doc = await page.getByTestId('methodology-page').innerText();
  assert.match(doc, /The `?range`? method/);
  assert.ok(!/seed \d{3}/i.test(doc), 'sources by name');
  // A link to another page opens it in the lesson; none leads into the repository.
  const hrefs = await page
    .getByTestId('lesson-panel')
    .locator('a[href]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  for (const href of hrefs) {
    assert.ok(href.startsWith('#') || href.startsWith('https://'), href);
  }
  await page.getByTestId('methodology-doc-methodology').click();
  await page.getByTestId('methodology-link-planner').first().click();
  await page.locator('[data-testid="methodology-page"][data-doc="planner"]').waitFor();

  // Understand: a counterexample with its reason, recorded.
  await page.getByTestId('lesson-counter-run').click();
  await page.getByTestId('lesson-counter-table').waitFor();
  await page.getByTestId('lesson-counterexample').fill('LoRA zonder dropout op Llama 3.2 1B');
  await page.getByTestId('lesson-reason').fill('de dropout bewaart een kopie van de invoer');
  await page.getByTestId('lesson-counter-record').click();
  await page.locator('[data-testid="lesson-contract-understand"][data-done="true"]').waitFor();
  await page.getByTestId('lesson-notes').fill('nog niet vastgelegd');

  await page.reload();
  await ready(page);
  await page.getByTestId('method-allocator').click();
  await page.locator('[data-testid="lesson-contract-understand"][data-done="true"]').waitFor();
  assert.equal(await page.locator('[data-testid="lesson-contract-implement"]').getAttribute('data-done'), 'true');
  assert.equal(await page.getByTestId('lesson-notes').inputValue(), 'nog niet vastgelegd');
  const stored = await page.evaluate((key) => JSON.parse(localStorage.getItem(key)), KEY);
  assert.ok(stored.lesson.progress.allocator.understood_at);
  assert.equal(stored.entries.at(-1).step, 'understand');
  assert.deepEqual(errors, []);
  await context.close();
});
