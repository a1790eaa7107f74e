#!/usr/bin/env node
// Gives the style sheets that parts add after the first result
// (src/styles.rs) a name with their hash, as Trunk does for the first
// sheet, so a browser or a host's cache never keeps an old copy across a
// release: `style/notebook.css` becomes `style/notebook-HASH.css`, and
// index.html gets
//   <meta name="vramfit-sheet-notebook" content="style/notebook-HASH.css"
//         data-integrity="sha384-…">
// which the part reads to add the sheet with its integrity.
//
// Runs from scripts/post-build.mjs before the offline worker's release
// list (which must list the new names). By hand: node scripts/sheets.mjs DIR
import { createHash } from 'node:crypto';
import { readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The sheets a part adds later, by the name src/styles.rs asks for. */
export const SHEETS = ['notebook', 'engine'];
const PREFIX = 'vramfit-sheet-';

/** Renames each sheet in `dir/style` to its hashed name and names it in index.html. */
export async function hashSheets(dir) {
  const style = join(dir, 'style');
  const files = await readdir(style);
  const page = join(dir, 'index.html');
  let html = await readFile(page, 'utf8');
  if (!html.includes('</head>')) throw new Error('index.html has no </head>');
  const out = [];
  for (const name of SHEETS) {
    // A rebuild into the same folder may find the sheet already renamed.
    const file = files.find((f) => f === `${name}.css` || new RegExp(`^${name}-[0-9a-f]{16}\\.css$`).test(f));
    if (!file) throw new Error(`style/${name}.css is not in the build (index.html copies it)`);
    const bytes = await readFile(join(style, file));
    const hashed = `${name}-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.css`;
    if (file !== hashed) await rename(join(style, file), join(style, hashed));
    const integrity = `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
    html = html.replace(new RegExp(`<meta name="${PREFIX}${name}"[^>]*>`, 'g'), '');
    html = html.replace('</head>', `<meta name="${PREFIX}${name}" content="style/${hashed}" data-integrity="${integrity}"></head>`);
    out.push(`style/${hashed}`);
  }
  await writeFile(page, html);
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error('usage: node scripts/sheets.mjs DIR');
    process.exit(2);
  }
  console.log((await hashSheets(dir)).join('\n'));
}
