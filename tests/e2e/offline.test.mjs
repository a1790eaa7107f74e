// Offline use: a first visit leaves the service worker (sw.js, written by
// scripts/sw-release.mjs at build time) holding this release's files; a
// second visit with the network off still computes. The Hub is never
// answered from that cache and keeps its own offline message.
import { test, after } from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { releaseOf, writeWorker } from '../../scripts/sw-release.mjs';
import { ROOT, DIST, builtRelease, cachedUrls, pageCaches, useServerAndBrowser, waitForWorker } from './helpers.mjs';

const CONFIG = join(ROOT, 'crates', 'vramfit-core', 'data', 'configs', 'Qwen__Qwen3-8B.json');

let server;
let browser;
// While `down`, the server answers nothing and counts what still reached it.
const net = { down: false, reached: [] };

function fixtureHub(req, res) {
  if (net.down) {
    net.reached.push(req.url);
    req.socket.destroy();
    return;
  }
  readFile(CONFIG).then((body) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
}

useServerAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  {
    routes: { '/hub/': fixtureHub },
    root: (req) => {
      if (!net.down) return DIST;
      net.reached.push(req?.url);
      return null;
    },
  },
);

async function fetchModel(page, id) {
  await page.getByTestId('hub-id').fill(id);
  await page.getByTestId('hub-fetch').click();
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=hub-status]');
    return s.dataset.outcome && s.dataset.outcome !== 'loading';
  });
  const status = page.getByTestId('hub-status');
  return { outcome: await status.getAttribute('data-outcome'), text: await status.innerText() };
}

async function ringAfter(page, gb) {
  await page.getByTestId('field-gpu_memory_gb').fill(gb);
  await page.waitForFunction(
    (gb) => document.querySelector('[data-testid=field-gpu_memory_gb]').value === gb,
    gb,
  );
  return page.getByTestId('utilization-ring').getAttribute('aria-valuenow');
}

test('dist/sw.js lists every file of dist/ with its hash', async () => {
  const built = await builtRelease();
  const now = await releaseOf(DIST);
  assert.match(built.id, /^[0-9a-f]{16}$/);
  // The hook ran on the files as they were published (nothing changed after).
  assert.deepEqual(built.files, now.files);
  const paths = built.files.map(([p]) => p);
  for (const p of ['index.html', 'boot.js', 'manifest.webmanifest', 'icons/vramfit.svg']) {
    assert.ok(paths.includes(p), p);
  }
  assert.ok(paths.some((p) => p.endsWith('.wasm')));
  assert.ok(!paths.includes('sw.js'));
  // The built worker is valid JavaScript (its comments were dropped).
  execFileSync(process.execPath, ['--check', join(DIST, 'sw.js')]);
});

test('a release is its files: a change is a new id; sw.js, compressed copies, PNG icons are left out', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'vramfit-release-'));
  after(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'icons'));
  await writeFile(join(dir, 'index.html'), '<!DOCTYPE html><title>a</title>');
  await writeFile(join(dir, 'app-1.js'), 'one');
  await writeFile(join(dir, 'app-1.js.br'), 'compressed');
  await writeFile(join(dir, 'app-1_bg.wasm.gz'), 'compressed');
  await writeFile(join(dir, '.stage'), 'hidden');
  await writeFile(join(dir, 'icons', 'i.png'), 'png');
  await writeFile(join(dir, 'icons', 'i.svg'), 'svg');
  const first = await writeWorker(dir);
  assert.deepEqual(
    first.files.map(([p]) => p),
    ['app-1.js', 'icons/i.svg', 'index.html'],
  );
  // sha384 of "one" (openssl dgst -sha384 -binary | base64), as HTML writes it.
  assert.equal(first.files[0][1], 'sha384-Xby+2wDRMaKeBZP5dvK0N5QpOSORmtQnZt6Bf+yCSmJieZ/sjQTLmxfEjo6ukSZY');
  const worker = await readFile(join(dir, 'sw.js'), 'utf8');
  assert.ok(worker.includes(`id: "${first.id}"`));
  assert.ok(!worker.includes('const RELEASE = null;'));
  // Writing sw.js does not change the release; changing a file does.
  assert.equal((await releaseOf(dir)).id, first.id);
  await writeFile(join(dir, 'app-1.js'), 'two');
  assert.notEqual((await releaseOf(dir)).id, first.id);
  // Not a built site: refused.
  await rm(join(dir, 'index.html'));
  await assert.rejects(releaseOf(dir), /no index.html/);
});

test('a second visit works with the network off; the Hub is never cached and says it is offline', async () => {
  const context = await browser.newContext({ locale: 'es-ES' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  const url = `${server.url}?hub=${server.url}hub`;
  await page.goto(url);
  await page.getByTestId('total-memory').waitFor();
  await waitForWorker(page);

  // The worker holds exactly this release.
  const release = await builtRelease();
  assert.deepEqual(await pageCaches(page), {
    [`vramfit ${server.url} ${release.id}`]: cachedUrls(server.url, release.files),
  });

  // Online, the Hub answers, through the network: the request is the
  // page's own (a route on the page sees it), not one the worker made.
  assert.equal((await fetchModel(page, 'Qwen/Qwen3-8B')).outcome, 'loaded');
  await page.getByTestId('model-summary').waitFor();
  const real = await context.newPage();
  await real.goto(server.url);
  await real.getByTestId('total-memory').waitFor();
  assert.ok(await real.evaluate(() => navigator.serviceWorker.controller !== null));
  const asked = [];
  await real.route('https://huggingface.co/**', async (route) => {
    asked.push(route.request().url());
    await route.fulfill({
      body: await readFile(CONFIG, 'utf8'),
      headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' },
    });
  });
  assert.equal((await fetchModel(real, 'Qwen/Qwen3-8B')).outcome, 'loaded');
  assert.deepEqual(asked, ['https://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json']);
  await real.close();
  // Back to the default scenario, which the address now keeps (#s=).
  await page.goto(url);
  await page.getByTestId('total-memory').filter({ hasText: '18,78 GB' }).waitFor();
  assert.equal(await ringAfter(page, '40'), '47');

  await context.setOffline(true);
  net.down = true;
  try {
    await page.reload();
    await page.getByTestId('total-memory').waitFor();
    assert.equal(await page.evaluate(() => navigator.onLine), false);
    // The scenario came back from the address, and the calculator computes.
    assert.equal(await page.getByTestId('field-gpu_memory_gb').inputValue(), '40');
    assert.equal(await page.getByTestId('utilization-ring').getAttribute('aria-valuenow'), '47');
    assert.equal(await ringAfter(page, '24'), '78.3');
    assert.equal(await page.getByTestId('ring-percent').innerText(), '78,3 %');
    assert.equal(await ringAfter(page, '12'), '156.5');
    assert.equal(await page.getByTestId('utilization-ring').getAttribute('data-status'), 'no_cabe');

    // The Hub: its own offline message, not a cached answer.
    const hub = await fetchModel(page, 'Qwen/Qwen3-8B');
    assert.equal(hub.outcome, 'offline');
    assert.match(hub.text, /No se pudo conectar con el Hub/);
    const cached = Object.values(await pageCaches(page)).flat();
    assert.ok(!cached.some((u) => u.includes('/hub/') || u.includes('huggingface')), cached.join('\n'));
    // Nothing reached the server while offline.
    assert.deepEqual(net.reached, []);
  } finally {
    net.down = false;
    await context.setOffline(false);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
