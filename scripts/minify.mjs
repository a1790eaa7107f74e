#!/usr/bin/env node
// Takes what only a reader of the source needs out of the page and its
// style sheets: HTML comments and blank lines in index.html, comments and
// runs of white space in every .css file (quoted strings kept as they
// are). The first sheet's `integrity` in index.html is computed again for
// its new bytes. Saved 1.4 KiB gzip of the first load when it came in (docs/size.md).
//
// Runs from scripts/post-build.mjs after the split (which writes links
// into index.html) and before the later sheets are hashed and the offline
// worker lists the files. By hand: node scripts/minify.mjs DIR
import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** `css` without comments and with white space folded, strings untouched. */
export function minifyCss(css) {
  // Comments and strings in the order they come: a quote inside a comment
  // opens no string, a comment inside a string is kept. A comment is
  // nothing in CSS (not even a space), so it goes first; then the white
  // space between strings is folded.
  const tokens = /(\/\*[\s\S]*?\*\/|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/;
  const strings = /("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/;
  const bare = css
    .split(tokens)
    .filter((part) => !part.startsWith('/*'))
    .join('');
  return bare
    .split(strings)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/\s+/g, ' ').replace(/\s*([{};])\s*/g, '$1')))
    .join('')
    .trim();
}

/** `html` without comments and blank lines. */
export function minifyHtml(html) {
  return html.replace(/<!--[\s\S]*?-->/g, '').replace(/\n[ \t]*(?=\n)/g, '').replace(/\n{2,}/g, '\n');
}

const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/** Minifies `dir`'s index.html and style sheets in place; returns the sheets. */
export async function minifySite(dir) {
  const sheets = [];
  for (const sub of ['', 'style']) {
    const files = await readdir(join(dir, sub)).catch(() => []);
    for (const f of files.filter((f) => f.endsWith('.css'))) {
      const path = join(dir, sub, f);
      await writeFile(path, minifyCss(await readFile(path, 'utf8')));
      sheets.push(sub ? `${sub}/${f}` : f);
    }
  }
  const page = join(dir, 'index.html');
  let html = minifyHtml(await readFile(page, 'utf8'));
  for (const name of sheets) {
    const link = new RegExp(`(<link rel="stylesheet" href="/?${name.replace(/[.]/g, '\\.')}" integrity=")[^"]*(")`);
    if (link.test(html)) html = html.replace(link, `$1${sri(await readFile(join(dir, name)))}$2`);
  }
  await writeFile(page, html);
  return sheets;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error('usage: node scripts/minify.mjs DIR');
    process.exit(2);
  }
  console.log((await minifySite(dir)).join('\n'));
}
