// Small reader and editor of WebAssembly binaries, for the split step
// (scripts/wasm-split.mjs): finds the functions that call one import, using
// the linker's relocations (cargo's output is linked with --emit-relocs),
// and adds or removes exports. Nothing here changes code or data, and the
// sections keep their order, so relocations (relative to their section)
// stay valid. Format: the WebAssembly binary format, and the tool
// conventions' Linking.md for the reloc.* custom sections.

/** Unsigned LEB128 at `at`: [value, next offset]. */
export function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

/** Unsigned LEB128 encoding of `value`. */
export function toLeb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

const text = (bytes, at) => {
  const [length, from] = leb(bytes, at);
  return [Buffer.from(bytes.subarray(from, from + length)).toString('utf8'), from + length];
};

/** The sections: [{ id, name (custom sections), start, payload, end }]. */
export function sections(bytes) {
  if (bytes.readUInt32LE(0) !== 0x6d736100) throw new Error('not a WebAssembly module');
  const out = [];
  let at = 8;
  while (at < bytes.length) {
    const start = at;
    const id = bytes[at++];
    const [size, payload] = leb(bytes, at);
    const name = id === 0 ? text(bytes, payload)[0] : null;
    out.push({ id, name, start, payload, end: payload + size });
    at = payload + size;
  }
  return out;
}

const one = (all, test, what) => {
  const found = all.filter(test);
  if (found.length !== 1) throw new Error(`expected one ${what} section, found ${found.length}`);
  return found[0];
};

/** The function imports, in index order: [{ module, name, type }]. */
export function functionImports(bytes) {
  const section = sections(bytes).find((s) => s.id === 2);
  if (!section) return [];
  const out = [];
  let [count, at] = leb(bytes, section.payload);
  const limits = (p) => {
    const flags = bytes[p++];
    let [, next] = leb(bytes, p);
    if (flags & 1) [, next] = leb(bytes, next);
    return next;
  };
  while (count--) {
    let module;
    let name;
    [module, at] = text(bytes, at);
    [name, at] = text(bytes, at);
    const kind = bytes[at++];
    if (kind === 0) {
      let type;
      [type, at] = leb(bytes, at);
      out.push({ module, name, type });
    } else if (kind === 1) {
      at = limits(at + 1); // reference type, limits
    } else if (kind === 2) {
      at = limits(at);
    } else if (kind === 3) {
      at += 2; // value type, mutability
    } else if (kind === 4) {
      [, at] = leb(bytes, at + 1); // attribute, type index
    } else {
      throw new Error(`import ${module}.${name}: unknown kind ${kind}`);
    }
  }
  return out;
}

// Relocation types that carry an addend (tool conventions, Linking.md).
const WITH_ADDEND = new Set([3, 4, 5, 8, 9, 11, 14, 15, 16, 17, 21, 22, 23, 25]);
const R_WASM_FUNCTION_INDEX_LEB = 0;

/**
 * The indices of the functions that call (or take a reference to) the
 * function import `module`.`name`, found through reloc.CODE: each
 * R_WASM_FUNCTION_INDEX_LEB relocation marks a function index in the code,
 * which in a linked module already holds the final index.
 */
export function callersOf(bytes, module, name) {
  const imports = functionImports(bytes);
  const target = imports.findIndex((i) => i.module === module && i.name === name);
  if (target < 0) return [];
  const all = sections(bytes);
  const code = one(all, (s) => s.id === 10, 'code');
  const relocs = one(all, (s) => s.name === 'reloc.CODE', 'reloc.CODE (link with --emit-relocs)');
  // Function bodies, as [start, end) offsets from the code section's payload.
  const bodies = [];
  let [count, at] = leb(bytes, code.payload);
  while (count--) {
    const [size, from] = leb(bytes, at);
    bodies.push([from - code.payload, from - code.payload + size]);
    at = from + size;
  }
  const callers = new Set();
  at = text(bytes, relocs.payload)[1];
  [, at] = leb(bytes, at); // the section the relocations apply to
  let entries;
  [entries, at] = leb(bytes, at);
  while (entries--) {
    const type = bytes[at++];
    let offset;
    [offset, at] = leb(bytes, at);
    [, at] = leb(bytes, at); // symbol index
    if (WITH_ADDEND.has(type)) [, at] = leb(bytes, at); // (signed: only skipped)
    if (type !== R_WASM_FUNCTION_INDEX_LEB) continue;
    if (leb(bytes, code.payload + offset)[0] !== target) continue;
    let lo = 0;
    let hi = bodies.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (bodies[mid][0] <= offset) lo = mid;
      else hi = mid - 1;
    }
    if (!(bodies[lo][0] <= offset && offset < bodies[lo][1])) throw new Error(`relocation at ${offset} is in no function`);
    callers.add(imports.length + lo);
  }
  return [...callers].sort((a, b) => a - b);
}

/** The exports: [{ name, kind, index }]. */
export function exportsOf(bytes) {
  const section = sections(bytes).find((s) => s.id === 7);
  if (!section) return [];
  const out = [];
  let [count, at] = leb(bytes, section.payload);
  while (count--) {
    let name;
    [name, at] = text(bytes, at);
    const kind = bytes[at++];
    let index;
    [index, at] = leb(bytes, at);
    out.push({ name, kind, index });
  }
  return out;
}

/** `bytes` with its export section replaced by `exports` (same place). */
export function withExports(bytes, exports) {
  const section = one(sections(bytes), (s) => s.id === 7, 'export');
  const body = [...toLeb(exports.length)];
  for (const { name, kind, index } of exports) {
    const utf8 = Buffer.from(name, 'utf8');
    body.push(...toLeb(utf8.length), ...utf8, kind, ...toLeb(index));
  }
  return Buffer.concat([
    bytes.subarray(0, section.start),
    Buffer.from([7, ...toLeb(body.length), ...body]),
    bytes.subarray(section.end),
  ]);
}

// The end of a constant expression starting at `at` (the opcodes that
// element offsets and items use: numbers, global.get, ref.func, ref.null,
// and extended-const arithmetic), just past its `end`.
function constExprEnd(bytes, at) {
  for (;;) {
    const op = bytes[at++];
    if (op === 0x0b) return at;
    if (op === 0x41 || op === 0x42 || op === 0x23 || op === 0xd2 || op === 0xd0) [, at] = leb(bytes, at);
    else if (![0x6a, 0x6b, 0x6c, 0x7c, 0x7d, 0x7e].includes(op)) throw new Error(`element section: opcode 0x${op.toString(16)} in a constant expression`);
  }
}

/**
 * `bytes` with every function index in its element segments mapped through
 * `map` (Map(old → new)); segments, offsets and order unchanged. Resolves
 * to [bytes, number of entries changed].
 */
export function withElementsMapped(bytes, map) {
  let changed = 0;
  const out = mapElements(bytes, (index) => {
    if (!map.has(index)) return index;
    changed++;
    return map.get(index);
  });
  return [out, changed];
}

/** The functions in the element segments (the table's), without repeats. */
export function tableFunctions(bytes) {
  const seen = new Set();
  mapElements(bytes, (index) => seen.add(index) && index);
  return [...seen];
}

function mapElements(bytes, swap) {
  const section = sections(bytes).find((s) => s.id === 9);
  if (!section) return bytes;
  const out = [];
  let [count, at] = leb(bytes, section.payload);
  out.push(...toLeb(count));
  const copy = (from, to) => {
    for (let i = from; i < to; i++) out.push(bytes[i]);
  };
  while (count--) {
    const flags = bytes[at++];
    out.push(flags);
    const start = at;
    if (flags === 2 || flags === 6) [, at] = leb(bytes, at); // table index
    if (!(flags & 1)) at = constExprEnd(bytes, at); // active: offset
    if (flags & 3 && !(flags & 4)) at += 1; // elemkind
    if (flags & 3 && flags & 4) [, at] = leb(bytes, at); // reference type
    copy(start, at);
    let items;
    [items, at] = leb(bytes, at);
    out.push(...toLeb(items));
    while (items--) {
      if (flags & 4) {
        const end = constExprEnd(bytes, at);
        if (bytes[at] === 0xd2 && bytes[leb(bytes, at + 1)[1]] === 0x0b) {
          out.push(0xd2, ...toLeb(swap(leb(bytes, at + 1)[0])), 0x0b);
        } else {
          copy(at, end);
        }
        at = end;
      } else {
        let index;
        [index, at] = leb(bytes, at);
        out.push(...toLeb(swap(index)));
      }
    }
  }
  const body = Buffer.from(out);
  return Buffer.concat([bytes.subarray(0, section.start), Buffer.from([9, ...toLeb(body.length)]), body, bytes.subarray(section.end)]);
}

/** Value types by their one-byte code (no GC reference types here). */
export const TYPE = { i32: 0x7f, i64: 0x7e, f32: 0x7d, f64: 0x7c, v128: 0x7b, funcref: 0x70, externref: 0x6f };
const VALUE_TYPES = new Set(Object.values(TYPE));

/** The type section's function types: [{ params: [code], results: [code] }]. */
export function functionTypes(bytes) {
  const section = sections(bytes).find((s) => s.id === 1);
  if (!section) return [];
  const out = [];
  let [count, at] = leb(bytes, section.payload);
  const vec = () => {
    let n;
    [n, at] = leb(bytes, at);
    const types = [...bytes.subarray(at, at + n)];
    if (!types.every((t) => VALUE_TYPES.has(t))) throw new Error('type section: a value type this reader does not know');
    at += n;
    return types;
  };
  while (count--) {
    if (bytes[at++] !== 0x60) throw new Error('type section: only plain function types are supported');
    const params = vec();
    out.push({ params, results: vec() });
  }
  return out;
}

/** `section` (by id) with `count` more entries, `extra` appended. */
function appended(bytes, id, count, extra) {
  const section = one(sections(bytes), (s) => s.id === id, `section ${id}`);
  const [old, at] = leb(bytes, section.payload);
  const body = Buffer.concat([Buffer.from(toLeb(old + count)), bytes.subarray(at, section.end), Buffer.from(extra)]);
  return Buffer.concat([bytes.subarray(0, section.start), Buffer.from([id, ...toLeb(body.length)]), body, bytes.subarray(section.end)]);
}

/**
 * `bytes` with `functions` defined after the existing ones, each
 * `{ params, results, locals: [[count, type]], code: [bytes] }` (`code`
 * without the final `end`). Resolves to [bytes, their function indices].
 */
export function withFunctions(bytes, functions) {
  const types = functionTypes(bytes).length;
  const imports = functionImports(bytes).length;
  const code = one(sections(bytes), (s) => s.id === 10, 'code');
  const defined = leb(bytes, code.payload)[0];
  const typeBytes = [];
  const funcBytes = [];
  const bodyBytes = [];
  functions.forEach(({ params, results, locals, code }, n) => {
    typeBytes.push(0x60, ...toLeb(params.length), ...params, ...toLeb(results.length), ...results);
    funcBytes.push(...toLeb(types + n));
    const body = [...toLeb(locals.length), ...locals.flatMap(([count, type]) => [...toLeb(count), type]), ...code, 0x0b];
    bodyBytes.push(...toLeb(body.length), ...body);
  });
  let out = appended(bytes, 1, functions.length, typeBytes);
  out = appended(out, 3, functions.length, funcBytes);
  out = appended(out, 10, functions.length, bodyBytes);
  return [out, functions.map((_, n) => imports + defined + n)];
}
