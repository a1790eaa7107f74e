// Languages: the first visit follows the browser, a choice in the header
// is remembered across reloads, and numbers follow the language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, useServerAndBrowser } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const EXPECT = {
  es: { total: '18,78 GB', percent: '78,3 %', status: 'con margen', label: 'Contexto', title: /memoria de GPU/ },
  en: { total: '18.78 GB', percent: '78.3%', status: 'with margin', label: 'Context', title: /GPU memory/ },
  nl: { total: '18,78 GB', percent: '78,3%', status: 'met marge', label: 'Context', title: /GPU-geheugen/ },
};

async function assertLanguage(page, code) {
  const want = EXPECT[code];
  await page.getByTestId('total-memory').filter({ hasText: want.total }).waitFor();
  assert.equal(await page.getByTestId('ring-percent').innerText(), want.percent);
  assert.match(await page.getByTestId('ring-status').innerText(), new RegExp(want.status));
  assert.equal(await page.locator('label[for=vf-field-context]').innerText(), want.label);
  assert.equal(await page.locator('html').getAttribute('lang'), code);
  assert.match(await page.title(), want.title);
  assert.equal(await page.getByTestId(`lang-${code}`).getAttribute('aria-pressed'), 'true');
}

for (const [locale, code] of [['es-ES', 'es'], ['en-US', 'en'], ['nl-NL', 'nl'], ['de-DE', 'es']]) {
  test(`a first visit in ${locale} opens in ${code}`, async () => {
    const { page, errors } = await openApp(browser, server.url, { locale });
    await assertLanguage(page, code);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the language switch translates everything and is remembered across a reload', async () => {
  const context = await browser.newContext({ locale: 'es-ES' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(server.url);
  await assertLanguage(page, 'es');
  await page.getByTestId('lang-en').click();
  await assertLanguage(page, 'en');
  // Every visible part changed: no Spanish words left in the main panels.
  const body = await page.locator('main').innerText();
  for (const spanish of ['Configurar', 'Revisar resultados', 'Cómo interpretar', 'Exportar JSON', 'sobran']) {
    assert.ok(!body.includes(spanish), `${spanish} still on the page`);
  }
  assert.match(body, /How to read the results/);
  assert.equal(await page.evaluate(() => localStorage.getItem('vramfit.lang')), '"en"');
  await page.reload();
  await assertLanguage(page, 'en');
  await page.getByTestId('lang-nl').click();
  await assertLanguage(page, 'nl');
  // The lesson and the notebook follow the page's language, Dutch too.
  assert.equal(await page.getByTestId('lesson-panel').getAttribute('lang'), 'nl');
  assert.match(await page.getByTestId('lesson-panel').innerText(), /Les: GPU-geheugen, stap voor stap/);
  assert.equal(await page.getByTestId('notebook-panel').getAttribute('lang'), 'nl');
  assert.match(await page.getByTestId('notebook-panel').innerText(), /Notitieboek/);
  // Errors are translated too.
  await page.getByTestId('field-layers').fill('abc');
  await page.getByTestId('hint-layers').filter({ hasText: 'Dat is geen getal.' }).waitFor();
  await page.reload();
  await assertLanguage(page, 'nl');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a browser without storage still works and switches language', async () => {
  const context = await browser.newContext({ locale: 'en-US' });
  await context.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException('storage is disabled', 'SecurityError');
      },
    });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(server.url);
  await assertLanguage(page, 'en');
  await page.getByTestId('lang-es').click();
  await assertLanguage(page, 'es');
  assert.equal(await page.getByTestId('panic-message').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
