#!/usr/bin/env node
// Writes the service worker of one release: public/sw.js with its
// `const RELEASE = null;` line replaced by the release's files (every file
// of the built site but those `skipped` names), each with its Subresource
// Integrity hash, and an id derived from all of them.
//
// Trunk runs it after every build (the post_build hook in Trunk.toml) on
// its staging folder, before that folder becomes dist/. By hand:
//   node scripts/sw-release.mjs DIR
// Any change to any file gives a new id, hence a new sw.js, which is what
// makes a browser install the new release (see public/sw.js).
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const TEMPLATE = resolve(import.meta.dirname, '..', 'public', 'sw.js');
const PLACEHOLDER = 'const RELEASE = null;';

/**
 * Not part of a release: the worker itself (it cannot list its own hash),
 * hidden files; gzip/Brotli/source-map files, which a host serves in place
 * of (or beside) a file the page asks for, never by their own name; and the
 * PNG icons, which only the browser fetches, when the app is installed
 * (online), so that no visitor downloads them twice for nothing.
 */
export const skipped = (path) =>
  path === 'sw.js' || /(^|\/)\./.test(path) || /\.(gz|br|map)$/.test(path) || /^icons\/.*\.png$/.test(path);

async function walk(dir, prefix = '') {
  const out = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await walk(dir, path)));
    else if (entry.isFile() && !skipped(path)) out.push(path);
  }
  return out;
}

/**
 * `{ id, files: [[path, integrity], ...] }` for the site in `dir`: paths
 * relative to the site's root with `/` separators, sorted; integrity as in
 * HTML (`sha384-` + base64); the id is the first 16 hex digits of SHA-256
 * over the `path integrity` lines and the worker's template.
 */
export async function releaseOf(dir, template = TEMPLATE) {
  const paths = (await walk(dir)).sort();
  if (!paths.includes('index.html')) throw new Error(`${dir} has no index.html: not a built site`);
  const files = [];
  for (const path of paths) {
    const digest = createHash('sha384').update(await readFile(join(dir, path))).digest('base64');
    files.push([path, `sha384-${digest}`]);
  }
  // The worker's own code counts too: a new worker is a new release, with
  // a cache of its own.
  const id = createHash('sha256')
    .update(files.map((f) => f.join(' ')).join('\n'))
    .update(await readFile(template))
    .digest('hex')
    .slice(0, 16);
  return { id, files };
}

/** Writes `dir/sw.js` for the site in `dir`; resolves to the release. */
export async function writeWorker(dir, template = TEMPLATE) {
  const source = await readFile(template, 'utf8');
  if (source.split(PLACEHOLDER).length !== 2) {
    throw new Error(`${template} must contain the line \`${PLACEHOLDER}\` exactly once`);
  }
  const release = await releaseOf(dir, template);
  const files = release.files.map((f) => `    ${JSON.stringify(f)},`).join('\n');
  const line = `const RELEASE = {\n  id: ${JSON.stringify(release.id)},\n  files: [\n${files}\n  ],\n};`;
  // Whole-line comments stay in the source: every visitor downloads this.
  const code = source
    .split('\n')
    .filter((l) => !/^\s*\/\//.test(l))
    .join('\n');
  const header = `// vramfit's offline worker, release ${release.id} (source: public/sw.js, scripts/sw-release.mjs)\n`;
  await writeFile(join(dir, 'sw.js'), header + code.replace(PLACEHOLDER, () => line));
  return release;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error('usage: node scripts/sw-release.mjs DIR (or run as a Trunk post_build hook)');
    process.exit(2);
  }
  const release = await writeWorker(dir);
  console.log(`sw.js: release ${release.id}, ${release.files.length} files`);
}
