// Layout and access: the phone's sticky bar, light and dark themes, the
// keyboard, the page policy, and no network request nobody asked for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, pickModel, useServerAndBrowser, waitForWorker } from './helpers.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

test('on a phone the ring and total stay in a sticky bar while scrolling', async () => {
  const { page, errors } = await openApp(browser, server.url, {
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const bar = page.getByTestId('compact-bar');
  assert.ok(await bar.isVisible());
  assert.match(await bar.innerText(), /78,3 %[\s\S]*18,78 GB/);
  await page.evaluate(() => window.scrollBy(0, 1500));
  const box = await bar.boundingBox();
  assert.ok(box && Math.abs(box.y) < 2, `bar at ${box?.y}`);
  // Typing far down the page updates the bar.
  await page.getByTestId('field-gpu_memory_gb').fill('12');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid=compact-bar]').innerText.includes('156,5'),
  );
  // Nothing is wider than the screen.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px too wide`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a desktop the compact bar is hidden and the results column is sticky', async () => {
  const { page } = await openApp(browser, server.url, { viewport: { width: 1280, height: 900 } });
  assert.equal(await page.getByTestId('compact-bar').isVisible(), false);
  // The ring stays in view wherever the page is scrolled: right after the
  // first result (the parts below may still be loading) and once the
  // details and the lesson have made the page long, down to its bottom.
  const ringInView = async (where) => {
    const ring = await page.getByTestId('utilization-ring').boundingBox();
    assert.ok(ring && ring.y >= -1 && ring.y + ring.height <= 900, `ring out of view ${where}: ${ring?.y}`);
  };
  await page.evaluate(() => window.scrollBy(0, 1500));
  await ringInView('after 1500 px');
  await page.getByTestId('details').waitFor();
  await page.getByTestId('lesson-references').waitFor({ state: 'attached' });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(height > 3000, `page only ${height}px tall`);
  for (const y of [1500, Math.round(height / 2), height]) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await ringInView(`at ${y} px of ${height}`);
  }
  await page.close();
});

test('light and dark themes follow the system', async () => {
  const colours = {};
  for (const scheme of ['light', 'dark']) {
    const { page } = await openApp(browser, server.url, { colorScheme: scheme });
    colours[scheme] = await page.evaluate(() => [
      getComputedStyle(document.body).backgroundColor,
      getComputedStyle(document.body).color,
    ]);
    await page.close();
  }
  assert.notDeepEqual(colours.light, colours.dark);
});

test('everything is reachable and usable with the keyboard', async () => {
  const { page, errors } = await openApp(browser, server.url);
  // Tab from the top: the language switch comes first, then the steps.
  const order = [];
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    order.push(await page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName));
  }
  assert.deepEqual(order.slice(0, 3), ['lang-es', 'lang-en', 'lang-nl']);
  assert.ok(order.includes('mode-inference'), order.join(' '));
  // Space on a focused segmented button presses it.
  await page.getByTestId('mode-full').focus();
  await page.keyboard.press('Space');
  await page.getByTestId('total-memory').filter({ hasText: '173,01 GB' }).waitFor();
  // A focused control shows where the focus is.
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none');
  // The advanced knobs open from the keyboard.
  await page.getByTestId('advanced').locator('summary').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.getByTestId('advanced').getAttribute('open'), '');
  // Typing a value and the ring's words for assistive technology.
  await page.getByTestId('mode-inference').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('method-quick').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('field-context').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('65536');
  await page.getByTestId('total-memory').filter({ hasText: '27,05 GB' }).waitFor();
  assert.equal(
    await page.getByRole('progressbar').getAttribute('aria-valuetext'),
    '112,7 %, no cabe, faltan 3,05 GB',
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('the page policy holds and nothing is fetched that nobody asked for', async () => {
  const page = await browser.newPage({ locale: 'es-ES', acceptDownloads: true });
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await page.goto(server.url);
  await page.getByTestId('total-memory').waitFor();
  const csp = await page.locator('meta[http-equiv=Content-Security-Policy]').getAttribute('content');
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  // The Hub, and the hosts its resolve/ downloads redirect to (a GGUF
  // file's header read by range requests), each by name.
  assert.match(csp, /connect-src 'self' https:\/\/huggingface.co [^;]*https:\/\/cas-bridge.xethub.hf.co [^;]*https:\/\/cdn-lfs.hf.co /);
  assert.doesNotMatch(csp.match(/connect-src [^;]*/)[0], /\*/);
  // Use the calculator a little: every panel, every method, a catalog model.
  await pickModel(page, 'meta-llama/Llama-3.1-8B');
  for (const m of ['quick', 'lesson', 'range', 'planner', 'allocator']) {
    await page.getByTestId(`method-${m}`).click();
  }
  await page.getByTestId('unit-gib').click();
  await page.getByTestId('lang-en').click();
  await page.getByTestId('gpu-select').fill('A100');
  await page.getByTestId('export-json').click();
  await page.waitForTimeout(200);
  // The offline worker (sw.js, from the site itself) runs under the policy.
  await waitForWorker(page);
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(problems, []);
  const origin = new URL(server.url).origin;
  const elsewhere = requests.filter((u) => !u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:'));
  assert.deepEqual(elsewhere, []);
  await page.close();
});
