// The build's minifier (scripts/minify.mjs): what it takes out of the page
// and its sheets, what it keeps, and that the page still names the first
// sheet with the integrity of the bytes it ships.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { minifyCss, minifyHtml } from '../../scripts/minify.mjs';
import { DIST } from './helpers.mjs';

test('comments and white space go, quoted strings and calc() stay', () => {
  const css = `/* the phone's bar */\n.a ,\n.b {\n  content: "  two  spaces /* kept */ ";\n  margin: calc(1rem * -1);\n}\n@media (min-width: 1024px) {\n  .c { font-family: "Segoe UI", Arial; }\n}\n`;
  assert.equal(
    minifyCss(css),
    `.a , .b{content: "  two  spaces /* kept */ ";margin: calc(1rem * -1);}@media (min-width: 1024px){.c{font-family: "Segoe UI", Arial;}}`,
  );
  // A comment is nothing, not a space; a quote in a comment opens no string.
  assert.equal(minifyCss(".x/* it's */.y { a: 'b' }"), ".x.y{a: 'b'}");
  assert.equal(minifyHtml('<head>\n  <!-- a\n  note -->\n\n  <meta a>\n</head>'), '<head>\n  <meta a>\n</head>');
});

test('the built page names its first sheet with the integrity of what it ships', async () => {
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  assert.doesNotMatch(html, /<!--/);
  const [, name, integrity] = html.match(/<link rel="stylesheet" href="\/?([^"]+\.css)" integrity="([^"]+)"/);
  const bytes = await readFile(join(DIST, name));
  assert.equal(integrity, `sha384-${createHash('sha384').update(bytes).digest('base64')}`);
  assert.doesNotMatch(bytes.toString('utf8'), /\/\*/);
});
