// Prints what a visitor downloads on the first load: every response in a
// built site folder (default dist/), raw, gzip -9 and brotli (quality 11),
// as a static host serves precompressed files. Usage:
//   node scripts/size.mjs [DIR] [--json] [--sections]
// --sections prints the WebAssembly module's sections instead (code, data,
// ...), each compressed on its own. The offline worker (sw.js), which the
// loader registers after the first result, and the wasm chunks, which the
// app fetches after it, are listed apart from the first load's total; the install icons (icons/) are not listed: only the browser
// fetches them, when the app is installed.
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const json = args.includes('--json');
const dir = resolve(args.find((a) => !a.startsWith('--')) ?? 'dist');

const gzip = (body) => gzipSync(body, { level: 9 }).length;
const brotli = (body) =>
  brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  }).length;
const kib = (b) => (b / 1024).toFixed(1);

// Responses a visitor downloads only after the first result: the offline
// worker, and the wasm chunks that the split build (scripts/wasm-split.mjs)
// writes beside the main module (`NAME_split_POINT.wasm`, `NAME_chunk_N.wasm`),
// fetched when a split function is first called.
const afterFirstResult = (name) => name === 'sw.js' || /_(split_\w+|chunk_\d+)\.wasm$/.test(name);

function print(rows, first, later = []) {
  const total = rows.reduce(
    (t, r) => ({ name: 'total', raw: t.raw + r.raw, gzip: t.gzip + r.gzip, brotli: t.brotli + r.brotli }),
    { name: 'total', raw: 0, gzip: 0, brotli: 0 },
  );
  if (json) {
    console.log(JSON.stringify({ rows, total, later }));
    return;
  }
  const width = Math.max(...[...rows, ...later].map((r) => r.name.length), first.length, 26);
  const line = (r) =>
    console.log(`${r.name.padEnd(width)}  ${kib(r.raw).padStart(9)}  ${kib(r.gzip).padStart(9)}  ${kib(r.brotli).padStart(9)}`);
  console.log(`${first.padEnd(width)}  ${'raw KiB'.padStart(9)}  ${'gzip KiB'.padStart(9)}  ${'br KiB'.padStart(9)}`);
  [...rows, total].forEach(line);
  if (later.length) {
    console.log('after the first result (not in the total):');
    later.forEach(line);
  }
}

// The sections of a WebAssembly module: [{ name, body }].
function sections(bytes) {
  const NAMES = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'datacount'];
  const leb = (at) => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (byte < 0x80) return [value, at];
    }
  };
  const out = [];
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at++];
    const [size, start] = leb(at);
    const body = bytes.subarray(start, start + size);
    let name = NAMES[id] ?? `section ${id}`;
    if (id === 0) {
      const [len, from] = leb(start);
      name = `custom:${bytes.subarray(from, from + len).toString()}`;
    }
    out.push({ name, body });
    at = start + size;
  }
  return out;
}

const files = (await readdir(dir)).sort().filter((n) => !n.startsWith('.') && !/\.(gz|br)$/.test(n));
if (args.includes('--sections')) {
  for (const name of files.filter((n) => n.endsWith('.wasm'))) {
    const bytes = await readFile(join(dir, name));
    const rows = sections(bytes).map(({ name, body }) => ({ name, raw: body.length, gzip: gzip(body), brotli: brotli(body) }));
    print(rows, `${name} section`);
  }
} else {
  const rows = [];
  const later = [];
  for (const name of files) {
    const body = await readFile(join(dir, name)).catch(() => null);
    if (body) {
      (afterFirstResult(name) ? later : rows).push({ name, raw: body.length, gzip: gzip(body), brotli: brotli(body) });
    }
  }
  print(rows, 'first load: response', later);
}
