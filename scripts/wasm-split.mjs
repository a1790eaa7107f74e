#!/usr/bin/env node
// Splits the app's WebAssembly into a main module and lazily loaded chunks,
// in a site folder that Trunk has just built (its staging folder: this runs
// from scripts/post-build.mjs, Trunk's post_build hook).
//
// Trunk 0.21 cannot split: it runs cargo, then wasm-bindgen and wasm-opt on
// the whole module. The split has to happen between cargo and wasm-bindgen,
// so this redoes Trunk's last two steps on the split module and puts its
// files in place of Trunk's:
//   1. `wasm_split_cli` (crates.io `wasm_split_cli_support`, installed by
//      scripts/setup.sh) reads cargo's output, linked with --emit-relocs
//      (build.rs, feature `split`), and writes main.wasm, one
//      `split_NAME.wasm` per `#[wasm_split(NAME)]` point, `chunk_N.wasm` for
//      code that several split points share, and `__wasm_split.js`, the
//      loader that fetches and instantiates them against the main module's
//      memory, table and exports (with two adaptations to wasm-bindgen
//      0.2.130, `rooted` and `castsInTable` below, and one to the loader,
//      `handledFetches`);
//   2. wasm-bindgen on main.wasm, with Trunk's arguments plus
//      `--keep-lld-exports` (the exports the chunks import) and
//      `--no-demangle`, as cargo-leptos does for the same tool;
//   3. wasm-opt on the main module and on each chunk (index.html turns
//      Trunk's off and gives this step's level and flags:
//      `data-split-wasm-opt`, `data-split-wasm-opt-params`);
//   4. names: one hash of all the final pieces, `vramfit-app-HASH.js` (glue),
//      `HASH_bg.wasm` (main), `HASH_split.js` (loader), `HASH_split_NAME.wasm`
//      and `HASH_chunk_N.wasm` (chunks); the glue's import of the loader and
//      the loader's of the glue and the chunks are rewritten to them;
//   5. index.html: the new names, the new integrity of the glue and the main
//      module, and a modulepreload of the loader (the glue imports it).
// The service worker's release list is written after this (post-build.mjs),
// so it lists the chunks too. docs/size.md tells the whole story.
//
// By hand, after `trunk build --release` with the hook removed:
//   node scripts/wasm-split.mjs DIR
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  TYPE,
  callersOf,
  exportsOf,
  functionImports,
  functionTypes,
  tableFunctions,
  toLeb,
  withElementsMapped,
  withExports,
  withFunctions,
} from './wasm-bytes.mjs';

const run = promisify(execFile);
const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
const PACKAGE = 'vramfit-app';
/** The loader's name as the splitter writes it into main.wasm's imports. */
const LOADER = './__wasm_split.js';

const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

async function tool(command, args) {
  try {
    return await run(command, args, { cwd: ROOT, maxBuffer: 64 << 20 });
  } catch (error) {
    const why = error.code === 'ENOENT' ? `${command} not found: run \`make setup\`` : error.stderr || error.message;
    throw new Error(`${command} ${args.join(' ')}: ${why}`);
  }
}

// wasm-bindgen 0.2.130 marks each monomorphized cast (`wbg_cast`'s
// `breaks_if_inlined`) by a call to this import, then finds those functions
// in the module it is given, reads their descriptors and rewrites every call
// to them (and every table entry, which is how a chunk calls the main
// module) into a generated import. `wasm_split_cli` 0.2.2 knows only the
// marker's older name (`__wbindgen_describe_cast`): it would move a cast
// used only by a chunk into that chunk, which wasm-bindgen never sees, and
// leave in the main module a forwarding function that wasm-bindgen takes
// for a cast and cannot read (it panics in `decode_generic_import`). So the
// casts are made roots of the main module (exports, which the splitter
// keeps in it) and the exports are removed again before wasm-bindgen.
const MARKER = ['__wbindgen_placeholder__', '__wbindgen_describe_generic_import'];
const ROOT_EXPORT = '__vramfit_split_root_';

/** Cargo's module with every function that calls the marker exported. */
function rooted(bytes) {
  const callers = callersOf(bytes, ...MARKER);
  const exports = exportsOf(bytes);
  if (exports.some((e) => e.name.startsWith(ROOT_EXPORT))) throw new Error(`an export already starts with ${ROOT_EXPORT}`);
  return withExports(bytes, [...exports, ...callers.map((index, n) => ({ name: `${ROOT_EXPORT}${n}`, kind: 0, index }))]);
}

/** The split main module without the exports `rooted` added. */
function unrooted(bytes) {
  return withExports(bytes, exportsOf(bytes).filter((e) => !e.name.startsWith(ROOT_EXPORT)));
}

/**
 * The main module after wasm-bindgen, with no import in its function table.
 * A chunk calls a main-module function through the table, so each cast it
 * uses is there (see `rooted`); wasm-bindgen binds the cast to a generated
 * import and repoints the table entry at it, then its externref pass gives
 * that import its JS type (the value as `externref`, not an index into
 * wasm-bindgen's table of JS values) and gives the main module's callers a
 * shim of the original type, but leaves the table entry on the import (and
 * drops the shim when nothing in the main module calls the cast): the
 * chunk's call_indirect would fail with "function signature mismatch".
 * Each such entry gets a new function of the original type that does what
 * wasm-bindgen's shim does: call the import, store the value in
 * `__wbindgen_externrefs` at a slot from `__externref_table_alloc` (both
 * exported for the glue), return the slot.
 */
function castsInTable(bytes) {
  const imports = functionImports(bytes);
  const types = functionTypes(bytes);
  const exported = (name, kind) => exportsOf(bytes).find((e) => e.name === name && e.kind === kind)?.index;
  const alloc = exported('__externref_table_alloc', 0);
  const table = exported('__wbindgen_externrefs', 1);
  const wrappers = [];
  const targets = [];
  for (const index of tableFunctions(bytes)) {
    if (index >= imports.length || targets.includes(index)) continue;
    const { params, results } = types[imports[index].type];
    const externref = [...params, ...results].filter((t) => t === TYPE.externref).length;
    if (externref === 0) continue;
    if (params.includes(TYPE.externref) || results.length !== 1 || alloc === undefined || table === undefined) {
      const { module, name } = imports[index];
      throw new Error(`a chunk calls the import ${module}.${name} through the table with JS values this step cannot adapt`);
    }
    const value = params.length; // locals: the params, then the value, then its slot
    const slot = value + 1;
    const code = params.flatMap((_, n) => [0x20, ...toLeb(n)]);
    code.push(0x10, ...toLeb(index), 0x21, ...toLeb(value));
    code.push(0x10, ...toLeb(alloc), 0x22, ...toLeb(slot), 0x20, ...toLeb(value), 0x26, ...toLeb(table));
    code.push(0x20, ...toLeb(slot));
    wrappers.push({ params, results: [TYPE.i32], locals: [[1, TYPE.externref], [1, TYPE.i32]], code });
    targets.push(index);
  }
  if (!wrappers.length) return bytes;
  const [out, indices] = withFunctions(bytes, wrappers);
  return withElementsMapped(out, new Map(targets.map((t, n) => [t, indices[n]])))[0];
}

/**
 * The loader with every chunk fetch's failure handled from the start.
 * `wasm_split_cli` 0.2.2's loader starts a chunk's fetch, then awaits the
 * shared chunks it needs, and only then hands the fetch to
 * `WebAssembly.instantiateStreaming`: a fetch that fails meanwhile (offline,
 * a host that lost the file) is an unhandled rejection, a page error, even
 * though the load then fails cleanly (the split function returns its
 * error). A no-op handler marks it handled; `instantiateStreaming` still
 * sees the failure.
 */
function handledFetches(loader) {
  const fetchLine = 'const src = fetch(srcUrl);';
  if (loader.split(fetchLine).length !== 2) throw new Error(`__wasm_split.js: expected one \`${fetchLine}\``);
  return loader.replace(fetchLine, `${fetchLine} src.catch(() => {});`);
}

/** `data-wasm-opt` and `data-wasm-opt-params` of the rust link in index.html. */
function wasmOptOf(html) {
  const link = html.match(/<link\b[^>]*data-trunk[^>]*rel="rust"[^>]*>/)?.[0] ?? '';
  const level = link.match(/data-split-wasm-opt="([^"]*)"/)?.[1] ?? 'z';
  const params = link.match(/data-split-wasm-opt-params="([^"]*)"/)?.[1] ?? '';
  return { level, params: params.split(/\s+/).filter(Boolean) };
}

/** Replaces the integrity of the `<link>` whose href ends with `/name`. */
function setIntegrity(html, name, integrity) {
  let found = 0;
  const out = html.replace(/<link\b[^>]*>/g, (tag) => {
    if (!new RegExp(`href="[^"]*/${name.replace(/[.]/g, '\\.')}"`).test(tag)) return tag;
    found++;
    return tag.replace(/integrity="[^"]*"/, `integrity="${integrity}"`);
  });
  if (found !== 1) throw new Error(`index.html: expected one <link> to ${name}, found ${found}`);
  return out;
}

/**
 * Splits the app in the built site `dir`. `profile`: Trunk's (`release`
 * runs wasm-opt); `source`: the index.html Trunk built from (for the
 * wasm-opt settings); `targetDir`: cargo's. Resolves to
 * `{ main, loader, chunks: [names] }`.
 */
export async function splitSite(dir, { profile = 'release', source = join(ROOT, 'index.html'), targetDir } = {}) {
  targetDir ??= process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(ROOT, 'target');
  const names = await readdir(dir);
  const glues = names.filter((n) => new RegExp(`^${PACKAGE}(-[0-9a-f]+)?\\.js$`).test(n));
  if (glues.length !== 1) throw new Error(`${dir}: expected one ${PACKAGE}-HASH.js, found ${glues.join(', ') || 'none'}`);
  const trunkBase = glues[0].slice(0, -'.js'.length);
  if (!names.includes(`${trunkBase}_bg.wasm`)) throw new Error(`${dir}: ${trunkBase}_bg.wasm is missing`);

  const input = join(targetDir, 'wasm32-unknown-unknown', profile, `${PACKAGE}.wasm`);
  const work = join(targetDir, 'wasm-split', profile);
  await rm(work, { recursive: true, force: true });
  await mkdir(join(work, 'bindgen'), { recursive: true });

  // 1. Split cargo's output, with wasm-bindgen's casts held in the main module.
  await writeFile(join(work, 'input.wasm'), rooted(await readFile(input)));
  await tool('wasm_split_cli', [join(work, 'input.wasm'), join(work, 'split')]);
  const mainSplit = join(work, 'split', 'main.wasm');
  await writeFile(mainSplit, unrooted(await readFile(mainSplit)));
  const pieces = (await readdir(join(work, 'split'))).filter((n) => n.endsWith('.wasm') && n !== 'main.wasm').sort();

  // 2. wasm-bindgen on the main module, as Trunk runs it, plus what the split needs.
  await tool('wasm-bindgen', [
    '--target=web',
    `--out-dir=${join(work, 'bindgen')}`,
    `--out-name=${PACKAGE}`,
    '--no-typescript',
    '--keep-lld-exports',
    '--no-demangle',
    mainSplit,
  ]);
  const bound = join(work, 'bindgen', `${PACKAGE}_bg.wasm`);
  await writeFile(bound, castsInTable(await readFile(bound)));
  const snippets = join(work, 'bindgen', 'snippets');
  if (await stat(snippets).catch(() => null)) await cp(snippets, join(dir, 'snippets'), { recursive: true });

  // 3. wasm-opt on every module (release only, as Trunk), in parallel.
  const { level, params } = wasmOptOf(await readFile(source, 'utf8'));
  const modules = ['main.wasm', ...pieces];
  const built = (m) => join(work, 'out', m);
  await mkdir(join(work, 'out'));
  await Promise.all(
    modules.map((m) => {
      const from = m === 'main.wasm' ? bound : join(work, 'split', m);
      return profile === 'release' && level !== '0'
        ? tool('wasm-opt', [`-O${level}`, ...params, from, '-o', built(m)])
        : cp(from, built(m));
    }),
  );

  // 4. Names. The splitter is not deterministic (the same cargo output can
  // give chunks in another order), and a chunk works only with the main
  // module it was split from, so Trunk's name (the hash of cargo's output)
  // is not enough: every file takes one hash of all the final pieces.
  let glue = await readFile(join(work, 'bindgen', `${PACKAGE}.js`), 'utf8');
  let loader = handledFetches(await readFile(join(work, 'split', '__wasm_split.js'), 'utf8'));
  const hash = createHash('sha256');
  for (const m of modules) hash.update(await readFile(built(m)));
  const base = `${PACKAGE}-${hash.update(glue).update(loader).digest('hex').slice(0, 16)}`;
  const mainName = `${base}_bg.wasm`;
  const loaderName = `${base}_split.js`;
  const chunkName = (piece) => `${base}_${piece}`;
  // The glue imports the loader (once per chunk); the loader imports the
  // glue and fetches the chunks.
  const importLine = new RegExp(`(\\bfrom\\s*)(['"])${LOADER.replace(/[.]/g, '\\.')}\\2`, 'g');
  const imports = glue.match(importLine)?.length ?? 0;
  if (imports === 0) throw new Error(`the glue does not import ${LOADER} (no split point?)`);
  glue = glue.replace(importLine, `$1$2./${loaderName}$2`);
  const mainImport = /(\bfrom\s*)(['"])\.\/main\.js\2/;
  if (!mainImport.test(loader)) throw new Error('__wasm_split.js: no import of ./main.js');
  loader = loader.replace(mainImport, `$1$2./${base}.js$2`);
  for (const piece of pieces) {
    const at = `"./${piece}"`;
    if (!loader.includes(at)) throw new Error(`__wasm_split.js does not fetch ${piece}`);
    loader = loader.replaceAll(at, `"./${chunkName(piece)}"`);
  }
  await rm(join(dir, `${trunkBase}.js`));
  await rm(join(dir, `${trunkBase}_bg.wasm`));
  await writeFile(join(dir, `${base}.js`), glue);
  await writeFile(join(dir, loaderName), loader);
  for (const m of modules) await cp(built(m), join(dir, m === 'main.wasm' ? mainName : chunkName(m)));

  // 5. index.html: the new names and integrity, and the loader preloaded.
  let page = (await readFile(join(dir, 'index.html'), 'utf8')).replaceAll(trunkBase, base);
  page = setIntegrity(page, `${base}.js`, sri(glue));
  page = setIntegrity(page, mainName, sri(await readFile(join(dir, mainName))));
  const glueLink = page.match(new RegExp(`<link\\b[^>]*href="([^"]*/)${base}\\.js"[^>]*>`));
  const preload = `<link rel="modulepreload" href="${glueLink[1]}${loaderName}" crossorigin="anonymous" integrity="${sri(loader)}">`;
  page = page.replace(glueLink[0], `${glueLink[0]}${preload}`);
  await writeFile(join(dir, 'index.html'), page);

  return { main: mainName, loader: loaderName, chunks: pieces.map(chunkName) };
}

/**
 * For `scripts/size.sh --attribute`: splits cargo's output `input` as the
 * release build does (steps 1 and 2, into `work`) and keeps the function
 * names, demangled, in `work/bindgen/vramfit-app_bg.wasm` (the main
 * module), for scripts/size_attribute.py.
 */
export async function splitWithNames(input, work) {
  await rm(work, { recursive: true, force: true });
  await mkdir(join(work, 'bindgen'), { recursive: true });
  await writeFile(join(work, 'input.wasm'), rooted(await readFile(input)));
  await tool('wasm_split_cli', [join(work, 'input.wasm'), join(work, 'split')]);
  const mainSplit = join(work, 'split', 'main.wasm');
  await writeFile(mainSplit, unrooted(await readFile(mainSplit)));
  await tool('wasm-bindgen', [
    '--target=web',
    `--out-dir=${join(work, 'bindgen')}`,
    `--out-name=${PACKAGE}`,
    '--no-typescript',
    '--keep-lld-exports',
    mainSplit,
  ]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === '--names') {
  await splitWithNames(resolve(process.argv[3]), resolve(process.argv[4]));
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error('usage: node scripts/wasm-split.mjs DIR');
    process.exit(2);
  }
  const out = await splitSite(dir, { profile: process.env.TRUNK_PROFILE ?? 'release' });
  console.log(`wasm-split: ${out.main} + ${out.chunks.join(', ')} (loader ${out.loader})`);
}
