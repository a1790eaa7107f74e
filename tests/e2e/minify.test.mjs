// The build's minifier (scripts/minify.mjs): what it takes out of the page
// its sheets and its glue, what it keeps, and that the page still names the
// first sheet and each preloaded script with the integrity of the bytes it ships.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { minifyCss, minifyHtml, minifyJs } from '../../scripts/minify.mjs';
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

test('glue: comment lines and indentation go, a template literal across lines stays', () => {
  const js = [
    'export class A {',
    '    /**',
    '     * @returns {number}',
    '     */',
    '    get n() {',
    '        // a note',
    '        return 1; // kept: inside the line',
    '    }',
    '}',
    '',
    'const t = `one',
    '    // not a comment',
    '    two`;',
    '    const u = `${t}`;',
    '/** @type {number} */ let n = 1;',
  ].join('\n');
  assert.equal(
    minifyJs(js),
    ['export class A {', 'get n() {', 'return 1; // kept: inside the line', '}', '}', 'const t = `one', '    // not a comment', '    two`;', 'const u = `${t}`;', '/** @type {number} */ let n = 1;', ''].join('\n'),
  );
});

test('the built page preloads each script with the integrity of what it ships', async () => {
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  const links = [...html.matchAll(/<link rel="modulepreload" href="\/?([^"]+\.js)"[^>]*? integrity="([^"]+)"/g)];
  assert.ok(links.length >= 2, `glue and loader preloaded: ${links.length}`);
  for (const [, name, integrity] of links) {
    const bytes = await readFile(join(DIST, name));
    assert.equal(integrity, `sha384-${createHash('sha384').update(bytes).digest('base64')}`, name);
    assert.doesNotMatch(bytes.toString('utf8'), /^\s*\/\*\*/m, `${name} has no doc comment left`);
  }
});
