// A GGUF file read in the page as a person gives it: dropped or chosen in
// the model input, or its URL pasted (served here with range support, as
// the Hub's resolve links are), a split file by URL too. The file is
// written by the test (tests/e2e/gguf-writer.mjs): a llama with mixed
// per-tensor types and a full 64,000-token vocabulary, so its header is
// past the first 1 MiB read. Only the header may be fetched; the model
// size is the file's tensor bytes and the KV cache follows the header.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp, exportJson, cliJson, useServerAndBrowser } from './helpers.mjs';
import { mixedLlama, rangeServer } from './gguf-writer.mjs';

const SHAPE = { layers: 6, embd: 1024, ff: 2816, heads: 8, kvHeads: 2, headDim: 96, vocab: 64000, ctx: 32768 };
const [FILE] = mixedLlama(SHAPE);
const SHARDS = mixedLlama(SHAPE, 3);
const files = {
  '/gguf/org/repo/resolve/main/Mixed-Q4_K_M.gguf': FILE,
  ...Object.fromEntries(
    SHARDS.map((f, i) => [`/gguf/org/repo/resolve/main/Mixed-Q4_K_M-0000${i + 1}-of-00003.gguf`, f]),
  ),
};
const served = { bytes: 0, requests: 0, whole: 0 };
let server;
let browser;
let dir;
let path;

useServerAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  { routes: { '/gguf/': rangeServer(files, served) } },
);

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vramfit-gguf-'));
  path = join(dir, 'Mixed-Q4_K_M.gguf');
  // The header, then a hole to the file's length: a real file, all zeros.
  const f = await open(path, 'w');
  await f.write(FILE.header, 0, FILE.header.length, 0);
  await f.truncate(FILE.length);
  await f.close();
});
after(() => rm(dir, { recursive: true, force: true }));

/** llama.cpp's f16 K and V for `ctx` cells: 2 · layers · kv heads · head dim · 2 B. */
const kvBytes = (ctx) => 2 * SHAPE.layers * SHAPE.kvHeads * SHAPE.headDim * 2 * ctx;

async function modelInput(page) {
  await page.getByTestId('gguf-file').waitFor({ timeout: 30_000 });
}

/** The page's figures once a file is read: its status, the export. */
async function afterRead(page) {
  const status = page.getByTestId('gguf-status');
  await page.waitForFunction(
    () => ['loaded', 'error'].includes(document.querySelector('[data-testid="gguf-status"]')?.dataset.outcome),
    null,
    { timeout: 30_000 },
  );
  assert.equal(await status.getAttribute('data-outcome'), 'loaded', await status.textContent());
  await page.getByTestId('component-weights').waitFor();
  return { status: await status.textContent(), doc: (await exportJson(page)).doc };
}

function checkDoc(doc, tensorBytes) {
  assert.equal(doc.inputs.method, 'llamacpp');
  const e = doc.estimate.engine;
  // The model size is the file's own tensor bytes, type by type.
  assert.equal(e.model_size_bytes, tensorBytes);
  // The KV cache follows the header: 2 KV heads of 96, 6 blocks.
  const ctx = e.n_ctx ?? doc.inputs.context;
  assert.equal(e.kv_cache_bytes, kvBytes(ctx), `n_ctx ${ctx}`);
}

test('a GGUF file chosen in the model input is read by its header: its own types and shape', async () => {
  const { page, errors } = await openApp(browser, server.url, { locale: 'en-US' });
  await modelInput(page);
  await page.getByTestId('gguf-file').setInputFiles(path);
  const { status, doc } = await afterRead(page);
  assert.match(status, /Mixed-Q4_K_M\.gguf: llama/);
  assert.match(status, new RegExp(`${FILE.tensorBytes.toLocaleString('en-US')} bytes of tensors`));
  checkDoc(doc, FILE.tensorBytes);
  // The same file through the CLI: the same plan.
  const cli = cliJson([path, '--seq', String(doc.inputs.context)]);
  assert.equal(cli.estimate.engine.model_size_bytes, doc.estimate.engine.model_size_bytes);
  assert.equal(cli.estimate.engine.kv_cache_bytes, doc.estimate.engine.kv_cache_bytes);
  // Two reads of the file (1 MiB, then 2 MiB): a small share of it.
  assert.match(status, /Read 2\.1 MB \((\d+\.\d+)% of the file\) in 2 reads/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a GGUF file dropped on the model input is read, a file of an unknown architecture refused by name', async () => {
  const { page } = await openApp(browser, server.url, { locale: 'en-US' });
  await modelInput(page);
  const drop = async (name, bytes) => {
    const transfer = await page.evaluateHandle(
      ([name, base64]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name));
        return dt;
      },
      [name, Buffer.from(bytes).toString('base64')],
    );
    await page.getByTestId('gguf-drop').dispatchEvent('drop', { dataTransfer: transfer });
  };
  // The header alone, as a file: the reader never asks past it.
  await drop('Mixed-Q4_K_M.gguf', FILE.header);
  const { doc } = await afterRead(page);
  checkDoc(doc, FILE.tensorBytes);
  const mamba = Buffer.from(FILE.header);
  const at = mamba.indexOf('llama', 0, 'latin1');
  mamba.write('mamba', at, 'latin1');
  await drop('Other.gguf', mamba);
  const status = page.getByTestId('gguf-status');
  await page.waitForFunction(() => document.querySelector('[data-testid="gguf-status"]')?.dataset.outcome === 'error');
  assert.match(await status.textContent(), /architecture `mamba` is not known/);
  await page.close();
});

test('a GGUF URL is read by range requests, the header only; a split file shard by shard', async () => {
  const { page, errors } = await openApp(browser, server.url, { locale: 'nl-NL' });
  await modelInput(page);
  served.bytes = 0;
  served.requests = 0;
  await page.getByTestId('gguf-url').fill(new URL('/gguf/org/repo/resolve/main/Mixed-Q4_K_M.gguf', server.url).href);
  await page.getByTestId('gguf-read').click();
  const { doc } = await afterRead(page);
  checkDoc(doc, FILE.tensorBytes);
  assert.equal(served.whole, 0, 'never the whole file');
  assert.equal(served.requests, 2);
  assert.ok(served.bytes <= 2 ** 21 && served.bytes * 20 < FILE.length, `${served.bytes} of ${FILE.length}`);

  served.bytes = 0;
  served.requests = 0;
  await page
    .getByTestId('gguf-url')
    .fill(new URL('/gguf/org/repo/resolve/main/Mixed-Q4_K_M-00002-of-00003.gguf?download=true', server.url).href);
  await page.getByTestId('gguf-read').click();
  await page.waitForFunction(() =>
    /3 delen/.test(document.querySelector('[data-testid="gguf-status"]')?.textContent ?? ''),
  );
  const split = (await exportJson(page)).doc;
  const shardBytes = SHARDS.reduce((a, f) => a + f.tensorBytes, 0);
  assert.equal(shardBytes, FILE.tensorBytes);
  checkDoc(split, FILE.tensorBytes);
  const shardLen = SHARDS.reduce((a, f) => a + f.length, 0);
  assert.ok(served.requests >= 3 && served.bytes * 10 < shardLen, `${served.bytes} of ${shardLen}`);
  assert.equal(served.whole, 0);
  assert.deepEqual(errors, []);
  await page.close();
});
