#!/usr/bin/env node
// Precompressed copies beside the built files, for hosts that serve them
// (nginx `gzip_static` / `brotli_static`, Caddy `precompressed`, most CDNs'
// and static hosts' equivalents): `NAME.gz` (gzip -9) and `NAME.br`
// (brotli, quality 11) for every text and wasm file of the site. The page
// and the offline worker ask for NAME only; the host picks the copy the
// browser accepts (Accept-Encoding) and answers with Content-Encoding. The
// PNG icons are compressed already and get none.
//
// Runs last from scripts/post-build.mjs (after sw.js is written). By hand:
//   node scripts/precompress.mjs DIR
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Files that get precompressed copies. */
export const compressible = (path) => /\.(html|js|mjs|css|wasm|svg|webmanifest|json|txt)$/.test(path);

async function walk(dir, prefix = '') {
  const out = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await walk(dir, path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** Writes NAME.gz and NAME.br for every compressible file of `dir`; resolves to their count. */
export async function precompress(dir) {
  const files = await walk(dir);
  for (const stale of files.filter((f) => /\.(gz|br)$/.test(f))) await rm(join(dir, stale));
  let count = 0;
  for (const path of files.filter((f) => !/\.(gz|br)$/.test(f) && compressible(f))) {
    const body = await readFile(join(dir, path));
    const text = !path.endsWith('.wasm');
    await writeFile(join(dir, `${path}.gz`), gzipSync(body, { level: 9 }));
    await writeFile(
      join(dir, `${path}.br`),
      brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_MODE]: text ? constants.BROTLI_MODE_TEXT : constants.BROTLI_MODE_GENERIC,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
    count++;
  }
  return count;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/precompress.mjs DIR');
    process.exit(2);
  }
  console.log(`precompressed: ${await precompress(dir)} files`);
}
