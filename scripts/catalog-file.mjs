#!/usr/bin/env node
// Writes the model catalog beside the app, for the release build, which
// does not compile it into the wasm (docs/size.md): `models.json`, every
// config it names and their hf_quant_config.json side files, in one file `catalog-HASH.txt`, and a
// `<meta name="vramfit-catalog" content="catalog-HASH.txt"
// data-integrity="sha384-…">` in index.html, which the page reads to fetch
// and check it (src/catalog_file.rs describes the format and reads it).
//
// Each text keeps its JSON tokens exactly as written (numbers, `NaN`,
// escapes); only whitespace outside strings is dropped.
//
// Runs from scripts/post-build.mjs after the split (which rewrites
// index.html) and before the offline worker's release list (which must
// list the file). By hand: node scripts/catalog-file.mjs DIR
import { createHash } from 'node:crypto';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const DATA = resolve(import.meta.dirname, '..', 'crates', 'vramfit-core', 'data');
const HEADER = 'vramfit-catalog 1\n';
const META = 'vramfit-catalog';

/** `text` without the whitespace outside JSON strings. */
export function compact(text) {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') {
      out += c;
    }
  }
  return out;
}

/** The catalog file's text for the data folder `data`. */
export async function catalogText(data = DATA) {
  const models = await readFile(join(data, 'models.json'), 'utf8');
  const rows = JSON.parse(models).models;
  const entries = [['models.json', compact(models)]];
  for (const { file } of rows) entries.push([file, compact(await readFile(join(data, 'configs', file), 'utf8'))]);
  // A row's hf_quant_config.json side file (a ModelOpt export whose
  // config.json has no quantization_config), as `hf_quant/FILE`.
  for (const side of rows.map((m) => m.hf_quant_config).filter(Boolean)) {
    const name = `hf_quant/${side.file}`;
    entries.push([name, compact(await readFile(join(data, 'configs', name), 'utf8'))]);
  }
  return HEADER + entries.map(([name, text]) => `${name}\t${Buffer.byteLength(text)}\n${text}`).join('');
}

/** Writes the catalog file into the site `dir` and names it in its index.html. */
export async function writeCatalog(dir, data = DATA) {
  const text = await catalogText(data);
  const bytes = Buffer.from(text);
  const name = `catalog-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.txt`;
  for (const old of (await readdir(dir)).filter((f) => /^catalog-[0-9a-f]+\.txt$/.test(f))) await rm(join(dir, old));
  await writeFile(join(dir, name), bytes);
  const integrity = `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
  const page = join(dir, 'index.html');
  let html = await readFile(page, 'utf8');
  html = html.replace(new RegExp(`<meta name="${META}"[^>]*>`, 'g'), '');
  if (!html.includes('</head>')) throw new Error('index.html has no </head>');
  html = html.replace('</head>', `<meta name="${META}" content="${name}" data-integrity="${integrity}"></head>`);
  await writeFile(page, html);
  return { name, bytes: bytes.length, integrity };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error('usage: node scripts/catalog-file.mjs DIR');
    process.exit(2);
  }
  const out = await writeCatalog(dir);
  console.log(`catalog: ${out.name}, ${out.bytes} bytes`);
}
