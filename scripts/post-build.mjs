#!/usr/bin/env node
// Trunk's one post_build hook (Trunk.toml), on its staging folder before it
// becomes dist/. Trunk starts the hooks of one stage all at once, so the
// steps that must run in order are one hook:
//   1. scripts/wasm-split.mjs: the app's wasm split into a main module and
//      lazily loaded chunks (wasm-bindgen and wasm-opt run there);
//   2. scripts/minify.mjs: comments and white space out of index.html and
//      the style sheets (the first sheet's integrity computed again);
//   3. scripts/catalog-file.mjs: the model catalog as a file beside the
//      app, named with its hash in index.html (the release build does not
//      compile it in);
//   4. scripts/sheets.mjs: the style sheets that parts add later, renamed
//      with their hash and named in index.html;
//   5. scripts/sw-release.mjs: the offline worker's release list, which
//      must see the final files, chunks, catalog and sheets included;
//   6. scripts/precompress.mjs: `.gz` and `.br` copies of every text and
//      wasm file, for hosts that serve them.
import { splitSite } from './wasm-split.mjs';
import { minifySite } from './minify.mjs';
import { writeCatalog } from './catalog-file.mjs';
import { hashSheets } from './sheets.mjs';
import { writeWorker } from './sw-release.mjs';
import { precompress } from './precompress.mjs';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('usage: node scripts/post-build.mjs DIR (or run as a Trunk post_build hook)');
  process.exit(2);
}
const split = await splitSite(dir, { profile: process.env.TRUNK_PROFILE ?? 'release' });
console.log(`wasm-split: ${split.main} + ${split.chunks.join(', ')} (loader ${split.loader})`);
console.log(`minified: index.html, ${(await minifySite(dir)).join(', ')}`);
const catalog = await writeCatalog(dir);
console.log(`catalog: ${catalog.name}, ${catalog.bytes} bytes`);
console.log(`sheets: ${(await hashSheets(dir)).join(', ')}`);
const release = await writeWorker(dir);
console.log(`sw.js: release ${release.id}, ${release.files.length} files`);
console.log(`precompressed: ${await precompress(dir)} files (.gz, .br)`);
