// What a visitor downloads: every response of a built site folder (default
// dist/), raw, gzip -9 and brotli (quality 11), as a static host serves
// precompressed files, split into the first load (everything the page needs
// to show its first result) and what it fetches after it. Usage:
//   node scripts/size.mjs [DIR] [--lang es|en|nl] [--json] [--sections]
//   node scripts/size.mjs [DIR] --readme README.md   (rewrites its size table)
// --sections prints each WebAssembly module's sections instead (code,
// data, ...), each compressed on its own.
//
// The first load: the page, its loader, styles, icon and manifest, the
// wasm-bindgen glue, the chunk loader and the main module, and the
// visitor's language table (`*_split_lang_XX.wasm`, `--lang`, Spanish by
// default) with the shared chunks it needs, as the chunk loader lists them.
// After the first result: every other chunk (`*_split_NAME.wasm`,
// `*_chunk_N.wasm`), the model catalog (`catalog-*.txt`), the style sheets
// the lesson and the engine add (`style/*-HASH.css`) and the offline
// worker (sw.js). The install icons (icons/) are not listed: only the
// browser fetches them, when the app is installed; nor are the `.gz`/`.br`
// copies, which a host serves in place of the files.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const gzipSize = (body) => gzipSync(body, { level: 9 }).length;
export const brotliSize = (body) =>
  brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  }).length;
const kib = (b) => (b / 1024).toFixed(1);

/**
 * The chunk loader's view of the chunks: for each split point its file and
 * the shared chunks it needs, and for each shared chunk the split points
 * that share it (the loader's `/* a, b *\/` comments).
 */
export function chunksOf(loader) {
  const shared = new Map();
  for (const m of loader.matchAll(/\/\* ([\w, ]+) \*\/\s*const (__chunk_\d+) = makeLoad\(new URL\("\.\/([^"]+)"/g)) {
    shared.set(m[2], { file: m[3], users: m[1].split(', ') });
  }
  const points = new Map();
  for (const m of loader.matchAll(/__wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\(new URL\("\.\/([^"]+)"[^[]*\[([^\]]*)\]/g)) {
    const needs = m[3].split(',').map((s) => s.trim()).filter(Boolean).map((c) => shared.get(c)?.file);
    points.set(m[1], { file: m[2], needs });
  }
  return { points, shared: [...shared.values()] };
}

/** What each response is, for the table. */
function purpose(name, chunks) {
  const point = [...chunks.points].find(([, p]) => p.file === name)?.[0];
  const share = chunks.shared.find((s) => s.file === name);
  if (name === 'index.html') return 'the page';
  if (name === 'boot.js') return 'starts the app';
  if (name === 'manifest.webmanifest') return 'installing the app';
  if (name.startsWith('favicon')) return 'icon';
  if (name.startsWith('style/notebook-')) return 'styles of the lesson and the notebook (added with them)';
  if (name.startsWith('style/engine-')) return 'styles of the engine panel and knobs (added with them)';
  if (name.endsWith('.css')) return 'styles';
  if (name === 'sw.js') return 'offline worker (registered after the first result)';
  if (/^catalog-.*\.txt$/.test(name)) return 'the model catalog: models.json, every config and side file';
  if (name.endsWith('_split.js')) return 'chunk loader';
  if (name.endsWith('.js')) return 'wasm-bindgen glue';
  if (name.endsWith('_bg.wasm')) return 'main module: inputs, ring, total, breakdown, `quick`, Leptos';
  if (point?.startsWith('lang_')) return `the ${point.slice(5)} texts`;
  if (point === 'details') return 'the engine (every method, advice, speed, reader, GPUs) and the panels below';
  if (point === 'model') return 'model input: catalog picker, pasted config, Hub fetch';
  if (point === 'learn') return 'the lesson and the notebook';
  if (share) return `code shared by ${share.users.join(', ')}`;
  return '';
}

/**
 * The site's responses, `{ first, later }`, each `[{ name, purpose, raw,
 * gzip, brotli }]`, for a visitor whose language is `lang`.
 */
export async function responses(dir, lang = 'es') {
  const served = (e) => e.isFile() && !e.name.startsWith('.') && !/\.(gz|br)$/.test(e.name);
  const files = (await readdir(dir, { withFileTypes: true })).filter(served).map((e) => e.name).sort();
  // The sheets the lesson and the engine add when they load (scripts/sheets.mjs).
  const sheets = (await readdir(join(dir, 'style'), { withFileTypes: true }).catch(() => []))
    .filter((e) => served(e) && e.name.endsWith('.css'))
    .map((e) => `style/${e.name}`)
    .sort();
  const loaderName = files.find((f) => f.endsWith('_split.js'));
  const chunks = loaderName ? chunksOf(await readFile(join(dir, loaderName), 'utf8')) : { points: new Map(), shared: [] };
  const language = chunks.points.get(`lang_${lang}`);
  const firstChunks = new Set(language ? [language.file, ...language.needs] : []);
  const deferred = (name) =>
    name === 'sw.js' ||
    name.startsWith('style/') || /^catalog-.*\.txt$/.test(name) || (/_(split_\w+|chunk_\d+)\.wasm$/.test(name) && !firstChunks.has(name));
  const first = [];
  const later = [];
  for (const name of [...files, ...sheets]) {
    const body = await readFile(join(dir, name));
    const row = { name, purpose: purpose(name, chunks), raw: body.length, gzip: gzipSize(body), brotli: brotliSize(body) };
    (deferred(name) ? later : first).push(row);
  }
  return { first, later };
}

const sum = (rows) =>
  rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, brotli: t.brotli + r.brotli }), { raw: 0, gzip: 0, brotli: 0 });

/** Hash-free names (`vramfit-app-*_bg.wasm`) for a table that should not change with every build. */
const stable = (name) => name.replace(/-[0-9a-f]{16}/, '-*');

/** The Markdown table of `responses` (README's). */
export function markdown({ first, later }, lang = 'es') {
  const row = (r) => `| \`${stable(r.name)}\` | ${r.purpose} | ${kib(r.raw)} | ${kib(r.gzip)} | ${kib(r.brotli)} |`;
  const total = sum(first);
  const rest = sum(later);
  return [
    '| response | what it is | raw KiB | gzip KiB | br KiB |',
    '|---|---|---:|---:|---:|',
    ...first.map(row),
    `| **first load** (${lang}) | up to the first result | ${kib(total.raw)} | **${kib(total.gzip)}** | ${kib(total.brotli)} |`,
    ...later.map(row),
    `| **after the first result** | fetched right after it | ${kib(rest.raw)} | ${kib(rest.gzip)} | ${kib(rest.brotli)} |`,
  ].join('\n');
}

/** The sections of a WebAssembly module: [{ name, body }]. */
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

function printTable(rows, title, later = []) {
  const width = Math.max(...[...rows, ...later].map((r) => r.name.length), title.length, 26);
  const line = (r) =>
    console.log(`${r.name.padEnd(width)}  ${kib(r.raw).padStart(9)}  ${kib(r.gzip).padStart(9)}  ${kib(r.brotli).padStart(9)}`);
  console.log(`${title.padEnd(width)}  ${'raw KiB'.padStart(9)}  ${'gzip KiB'.padStart(9)}  ${'br KiB'.padStart(9)}`);
  [...rows, { name: 'total', ...sum(rows) }].forEach(line);
  if (later.length) {
    console.log('after the first result (not in the total):');
    [...later, { name: 'total after', ...sum(later) }].forEach(line);
  }
}

async function main() {
  const args = process.argv.slice(2);
  const option = (name) => {
    const at = args.indexOf(name);
    return at < 0 ? undefined : args[at + 1];
  };
  const values = new Set([option('--lang'), option('--readme')]);
  const dir = resolve(args.find((a) => !a.startsWith('--') && !values.has(a)) ?? 'dist');
  const lang = option('--lang') ?? 'es';
  if (args.includes('--sections')) {
    const names = (await readdir(dir)).sort().filter((n) => n.endsWith('.wasm'));
    for (const name of names) {
      const bytes = await readFile(join(dir, name));
      const rows = sections(bytes).map(({ name, body }) => ({ name, raw: body.length, gzip: gzipSize(body), brotli: brotliSize(body) }));
      printTable(rows, `${name} section`);
    }
    return;
  }
  const all = await responses(dir, lang);
  if (args.includes('--json')) {
    console.log(JSON.stringify({ ...all, total: sum(all.first), totalLater: sum(all.later) }));
  } else if (option('--readme')) {
    const readme = option('--readme');
    const text = await readFile(readme, 'utf8');
    const begin = '<!-- size:begin (make size writes this table) -->';
    const end = '<!-- size:end -->';
    const from = text.indexOf(begin);
    const to = text.indexOf(end);
    if (from < 0 || to < from) throw new Error(`${readme} has no ${begin} … ${end} markers`);
    await writeFile(readme, `${text.slice(0, from + begin.length)}\n${markdown(all, lang)}\n${text.slice(to)}`);
    console.log(`${readme}: size table rewritten`);
  } else {
    printTable(all.first, `first load (${lang}): response`, all.later);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
