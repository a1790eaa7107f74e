// Fetching a config.json from the Hugging Face Hub: a local fixture plays
// the Hub (?hub= points the page at it) and answers 200, 404, 403, 401 and
// not at all; each has its own message. The real Hub address is checked
// too, with the request answered by the test, never the network.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, openApp, cliJson, exportJson, useServerAndBrowser } from './helpers.mjs';

const CONFIG = join(ROOT, 'crates', 'vramfit-core', 'data', 'configs', 'Qwen__Qwen3-8B.json');
// NVIDIA's FP8 export: its quantization is stated only in hf_quant_config.json.
const FP8 = 'nvidia__Llama-3.1-70B-Instruct-FP8.json';
const FP8_CONFIG = join(ROOT, 'crates', 'vramfit-core', 'data', 'configs', FP8);
const FP8_SIDE = join(ROOT, 'crates', 'vramfit-core', 'data', 'configs', 'hf_quant', FP8);

let server;
let browser;
let config;
let fp8;
const seen = [];

/** The fixture Hub: one repository of each kind, mounted at /hub/. */
function fixtureHub(req, res) {
  const path = new URL(req.url, 'http://x').pathname.replace(/^\/hub/, '');
  seen.push(path);
  const routes = {
    '/Qwen/Qwen3-8B/resolve/main/config.json': [200, config, {}],
    '/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json': [
      403,
      'Access to model is restricted.',
      { 'x-error-code': 'GatedRepo' },
    ],
    '/someone/private-model/resolve/main/config.json': [401, 'Unauthorized', {}],
    '/nobody/nothing/resolve/main/config.json': [404, 'Entry not found', { 'x-error-code': 'EntryNotFound' }],
    '/flaky/server/resolve/main/config.json': [500, 'oops', {}],
    '/nvidia/Llama-3.1-70B-Instruct-FP8/resolve/main/config.json': [200, fp8?.config, {}],
    '/nvidia/Llama-3.1-70B-Instruct-FP8/resolve/main/hf_quant_config.json': [200, fp8?.side, {}],
  };
  if (path === '/down/hub/resolve/main/config.json') {
    req.socket.destroy();
    return;
  }
  const [status, body, headers] = routes[path] ?? [404, 'Repository not found', { 'x-error-code': 'RepoNotFound' }];
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
}

before(async () => {
  config = await readFile(CONFIG, 'utf8');
  fp8 = { config: await readFile(FP8_CONFIG, 'utf8'), side: await readFile(FP8_SIDE, 'utf8') };
});
useServerAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  { routes: { '/hub/': fixtureHub } },
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

test('each Hub answer has its own clear message, and a config loads', async () => {
  const { page, errors } = await openApp(browser, `${server.url}?hub=${server.url}hub`);
  const cases = [
    ['nobody/nothing', 'not_found', /HTTP 404/],
    ['meta-llama/Llama-3.1-8B-Instruct', 'gated', /HTTP 403.*licencia/],
    ['someone/private-model', 'gated', /HTTP 401/],
    ['flaky/server', 'http', /HTTP 500/],
    ['down/hub', 'offline', /No se pudo conectar con el Hub/],
    ['not a/valid id/at all', 'invalid_id', /propietario\/modelo/],
  ];
  for (const [id, outcome, message] of cases) {
    const answer = await fetchModel(page, id);
    assert.equal(answer.outcome, outcome, id);
    assert.match(answer.text, message, id);
    // A failed fetch loses nothing.
    assert.equal(await page.getByTestId('total-memory').innerText(), '18,78 GB', id);
  }
  // The invalid id never reached the network.
  assert.ok(!seen.some((p) => p.includes('valid')));
  const loaded = await fetchModel(page, 'Qwen/Qwen3-8B');
  assert.equal(loaded.outcome, 'loaded');
  assert.match(loaded.text, /Qwen\/Qwen3-8B/);
  await page.getByTestId('model-summary').waitFor();
  assert.equal(await page.getByTestId('config-input').inputValue(), config);
  const { doc } = await exportJson(page);
  // The app and the CLI pick the same most complete method for a real model.
  assert.deepEqual(doc, cliJson([CONFIG]));
  // The fixture's 4xx/5xx answers are logged by the browser as failed
  // resources; nothing else went wrong.
  assert.deepEqual(
    errors.filter((e) => !/Failed to load resource|ERR_EMPTY_RESPONSE|Failed to fetch/.test(e.message)),
    [],
  );
  await page.close();
});

test('a ModelOpt export comes with its hf_quant_config.json and weighs as the CLI reads its folder', async () => {
  const { page, errors } = await openApp(browser, `${server.url}?hub=${server.url}hub`, { locale: 'en-GB' });
  seen.length = 0;
  const loaded = await fetchModel(page, 'nvidia/Llama-3.1-70B-Instruct-FP8');
  assert.equal(loaded.outcome, 'loaded');
  assert.match(loaded.text, /config\.json and hf_quant_config\.json of nvidia\/Llama-3\.1-70B-Instruct-FP8/);
  assert.deepEqual(seen, [
    '/nvidia/Llama-3.1-70B-Instruct-FP8/resolve/main/config.json',
    '/nvidia/Llama-3.1-70B-Instruct-FP8/resolve/main/hf_quant_config.json',
  ]);
  await page.getByTestId('model-published').filter({ hasText: 'FP8' }).waitFor();
  assert.equal(await page.getByTestId('config-input').inputValue(), fp8.config);
  assert.equal(await page.getByTestId('side-input').inputValue(), fp8.side);
  assert.equal(await page.getByTestId('model-quant-note').count(), 0);
  // The CLI reads the same two files from a checkpoint's folder.
  const dir = await mkdtemp(join(tmpdir(), 'vramfit-modelopt-'));
  await writeFile(join(dir, 'config.json'), fp8.config);
  await writeFile(join(dir, 'hf_quant_config.json'), fp8.side);
  const { doc } = await exportJson(page);
  assert.deepEqual(doc, cliJson([dir]));
  await rm(dir, { recursive: true, force: true });
  // An ordinary model costs one request: no side file is asked for.
  seen.length = 0;
  assert.equal((await fetchModel(page, 'Qwen/Qwen3-8B')).outcome, 'loaded');
  assert.deepEqual(seen, ['/Qwen/Qwen3-8B/resolve/main/config.json']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the default Hub is huggingface.co, allowed by the page policy', async () => {
  const { page } = await openApp(browser, server.url);
  const asked = [];
  await page.route('https://huggingface.co/**', (route) => {
    asked.push(route.request().url());
    route.fulfill({
      status: 200,
      body: config,
      headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' },
    });
  });
  const violations = [];
  await page.exposeFunction('reportViolation', (v) => violations.push(v));
  await page.evaluate(() =>
    document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(e.blockedURI)),
  );
  const answer = await fetchModel(page, 'Qwen/Qwen3-8B');
  assert.equal(answer.outcome, 'loaded');
  assert.deepEqual(asked, ['https://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json']);
  assert.deepEqual(violations, []);
  await page.close();
});

test('a Hub the page policy does not allow is refused, not reached', async () => {
  const { page } = await openApp(browser, `${server.url}?hub=https://example.com`);
  const asked = [];
  page.on('request', (r) => {
    if (r.url().startsWith('https://example.com')) asked.push(r.url());
  });
  const answer = await fetchModel(page, 'Qwen/Qwen3-8B');
  assert.equal(answer.outcome, 'offline');
  assert.deepEqual(asked, []);
  await page.close();
});
