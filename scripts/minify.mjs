#!/usr/bin/env node
// Takes what only a reader of the source needs out of the page, its
// style sheets and the wasm-bindgen glue: HTML comments and blank lines in
// index.html, comments and runs of white space in every .css file (quoted
// strings kept as they are), comment lines and indentation in the glue and
// the split loader (.js at the top of the folder). The `integrity` in
// index.html of the first sheet and of each preloaded script is computed
// again for its new bytes. Saved 1.4 KiB gzip of the first load when the
// page and sheets came in, 1.3 more with the glue (docs/size.md).
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

/**
 * `js` without whole-line comments (`// ...` and `/** ... *\/` blocks),
 * indentation and blank lines. Line by line, so nothing inside a line is
 * touched; a line that starts inside a template literal (an odd number of
 * backticks so far) is kept as it is. Enough for generated glue, whose
 * comments are whole lines; not a general minifier.
 */
export function minifyJs(js) {
  const out = [];
  let inTemplate = false;
  let inDoc = false;
  for (const line of js.split('\n')) {
    const bare = line.trim();
    if (inTemplate) {
      out.push(line);
    } else if (inDoc) {
      inDoc = !bare.endsWith('*/');
      continue;
    } else if (bare.startsWith('/**') && !bare.slice(3, -2).includes('*/')) {
      // A doc block, or a one-line one; code after an inline `/** */` keeps its line.
      inDoc = !bare.endsWith('*/');
      continue;
    } else if (bare.startsWith('//') || bare === '') {
      continue;
    } else {
      out.push(bare);
    }
    if ((line.split('`').length - 1) % 2 === 1) inTemplate = !inTemplate;
  }
  return out.join('\n') + '\n';
}

const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/** Minifies `dir`'s index.html, style sheets and scripts in place; returns the files. */
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
  const scripts = [];
  for (const f of (await readdir(dir)).filter((f) => f.endsWith('.js') && f !== 'boot.js' && f !== 'sw.js')) {
    const path = join(dir, f);
    await writeFile(path, minifyJs(await readFile(path, 'utf8')));
    scripts.push(f);
  }
  const page = join(dir, 'index.html');
  let html = minifyHtml(await readFile(page, 'utf8'));
  for (const name of [...sheets, ...scripts]) {
    const escaped = name.replace(/[.]/g, '\\.');
    const link = new RegExp(`(<link rel="(?:stylesheet|modulepreload)" href="/?${escaped}"[^>]*? integrity=")[^"]*(")`);
    if (link.test(html)) html = html.replace(link, `$1${sri(await readFile(join(dir, name)))}$2`);
  }
  await writeFile(page, html);
  return [...sheets, ...scripts];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error('usage: node scripts/minify.mjs DIR');
    process.exit(2);
  }
  console.log((await minifySite(dir)).join('\n'));
}
