#!/usr/bin/env python3
"""Where the bytes of the app's WebAssembly go (standard library only).

    python3 scripts/size_attribute.py APP_BG.wasm [--final-code-gzip KIB] [--top N]

APP_BG.wasm is the wasm-bindgen output *before* wasm-opt, built with v0 symbol
mangling so that every monomorphized function's name carries its type
arguments (`scripts/size.sh --attribute` builds it). Prints, as Markdown:

- code by kind (Leptos views and signals, the app's own functions, the core's,
  serde, serde_json, core::fmt, ...) and by the module it serves (the first
  `vramfit_app::<module>` named in the function's full name, else the first
  `vramfit_core::<module>`, else the crate);
- data: the files the core embeds with `include_str!` and the string literals
  of each source folder found in the data section.

Sizes are raw bytes of function bodies; "gzip" compresses each group's bodies
together and scales the groups so that they add up to the final code
section's gzip size when --final-code-gzip is given. Groups are estimates:
gzip is not additive, and code that LLVM inlined counts for its caller.
"""

import glob
import gzip
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def leb(b, i):
    value = shift = 0
    while True:
        x = b[i]
        i += 1
        value |= (x & 0x7F) << shift
        shift += 7
        if x < 0x80:
            return value, i


def read_module(path):
    b = open(path, "rb").read()
    sections, customs, i = {}, {}, 8
    while i < len(b):
        sid = b[i]
        n, i = leb(b, i + 1)
        if sid == 0:
            l, j = leb(b, i)
            customs[b[j : j + l].decode()] = b[j + l : i + n]
        else:
            sections[sid] = b[i : i + n]
        i += n
    # Imported functions come first in the function index space.
    imports, j, n_imported = sections.get(2, b""), 0, 0
    if imports:
        count, j = leb(imports, 0)
        for _ in range(count):
            for _ in range(2):
                l, j = leb(imports, j)
                j += l
            kind = imports[j]
            j += 1
            if kind == 0:
                _, j = leb(imports, j)
                n_imported += 1
            elif kind in (1, 2):
                j += 1 if kind == 1 else 0
                flags = imports[j]
                _, j = leb(imports, j + 1)
                if flags & 1:
                    _, j = leb(imports, j)
            elif kind == 3:
                j += 2
            elif kind == 4:
                _, j = leb(imports, j + 1)
    names, nm, j = {}, customs.get("name", b""), 0
    while j < len(nm):
        sub = nm[j]
        n, j = leb(nm, j + 1)
        end = j + n
        if sub == 1:
            count, k = leb(nm, j)
            for _ in range(count):
                idx, k = leb(nm, k)
                l, k = leb(nm, k)
                names[idx] = nm[k : k + l].decode("utf-8", "replace")
                k += l
        j = end
    if not names:
        sys.exit(f"{path} has no function names: build it as scripts/size.sh --attribute does")
    code, funcs = sections[10], []
    count, j = leb(code, 0)
    for f in range(count):
        n, k = leb(code, j)
        funcs.append((names.get(n_imported + f, "?"), code[k : k + n]))
        j = k + n
    return funcs, sections.get(11, b"")


def strip_hashes(name):
    return re.sub(r"\[[0-9a-f]{5,16}\]", "", name)


def head(name):
    """The name without generic arguments: `a::<T>::f` -> `a::f`."""
    out, i, n = [], 0, len(name)
    while i < n:
        if name[i] == "<" and i > 0 and (name[i - 1].isalnum() or name[i - 1] in "_:>"):
            depth = 0
            while i < n:
                if name[i] == "<":
                    depth += 1
                elif name[i] == ">" and name[i - 1] != "-":
                    depth -= 1
                    if depth == 0:
                        break
                i += 1
            i += 1
            if out[-2:] == [":", ":"]:
                del out[-2:]
            continue
        out.append(name[i])
        i += 1
    return "".join(out)


LEPTOS = (
    r"(tachys|leptos|leptos_dom|reactive_graph|any_spawner|or_poisoned|throw_error|send_wrapper|"
    r"guardian|hydration_context|oco_ref|slotmap|futures\w*|pin_project\w*|async_lock|event_listener\w*|"
    r"wasm_streams|async_once_cell|drain_filter_polyfill|either_of|indexmap|rustc_hash|hashbrown|erased)::"
)


def kind(full_name):
    full = strip_hashes(full_name)
    s = head(full)
    m = re.match(r"^<(.*) as core::ops::function::Fn(Once|Mut)?>::call(_once|_mut)?", s)
    if m:
        s = m.group(1)
    s = s.lstrip("<(&")
    if s.startswith("core::ptr::drop_in_place"):
        if re.search(LEPTOS, full):
            return "Leptos: views, signals, effects (tachys, reactive_graph)"
        return "drop glue (other types)"
    if "serde_json::" in s:
        return "serde_json (parser, printer, Value)"
    if re.search(r"serde_core::|serde::", s):
        return "serde derive impls + serde_core"
    if re.match(LEPTOS, s) or re.search(r" as " + LEPTOS, s):
        return "Leptos: views, signals, effects (tachys, reactive_graph)"
    if re.match(r"(core|alloc)::fmt", s) or re.search(r" as (core|alloc)::fmt", s):
        return "core::fmt (format!, Display, Debug, float printing)"
    if re.match(r"(core::panicking|std::|console_error_panic_hook|core::slice::index|core::str::slice_error|"
                r"alloc::raw_vec::handle_error|alloc::alloc::handle_alloc_error|__rust)", s):
        return "panics + std"
    if re.match(r"(dlmalloc|alloc::alloc|__rdl|__rg|alloc::raw_vec)", s):
        return "allocator (dlmalloc, RawVec)"
    if re.match(r"(wasm_bindgen\w*|js_sys|web_sys|gloo_\w+)::|__wbg|__wbindgen|__externref", s) or re.search(
        r" as (wasm_bindgen|js_sys|web_sys)::", s
    ):
        return "wasm-bindgen, js-sys, web-sys, gloo"
    if s.startswith("vramfit_app"):
        return "app: its own functions (components with erased views inline)"
    if s.startswith("vramfit_core"):
        return "core: its own functions"
    if re.match(r"(core|alloc|compiler_builtins)::|(mem(cpy|set|move|cmp)|str|char|[ui]\d+|usize|f64|f32|\[)", s):
        return "core/alloc generics (Vec, String, sort, iterators, str, numbers)"
    return "other"


def module(full_name):
    s = strip_hashes(full_name)
    m = re.search(r"vramfit_app::(\w+)(::(\w+))?", s)
    if m:
        sub = m.group(3)
        if m.group(1) == "components" and sub and not sub.startswith("__component"):
            return f"app::components::{sub}"
        return f"app::{m.group(1)}"
    m = re.search(r"vramfit_core::(\w+)", s)
    if m:
        return f"core::{m.group(1)}"
    m = re.match(r"<?\(?&?(mut )?(\w+)", s)
    return f"crate {m.group(2) if m else '?'}"


def table(funcs, key, title, final_gzip_kib, limit):
    groups = defaultdict(list)
    for name, body in funcs:
        groups[key(name)].append(body)
    raw = {k: sum(map(len, v)) for k, v in groups.items()}
    gz = {k: len(gzip.compress(b"".join(v), 9)) for k, v in groups.items()}
    scale = final_gzip_kib * 1024 / sum(gz.values()) if final_gzip_kib else 1.0
    total = sum(raw.values())
    print(f"\n### {title}\n")
    print("| group | raw KiB | share | gzip KiB (est.) |\n|---|---:|---:|---:|")
    rows = sorted(raw, key=lambda k: -raw[k])
    for k in rows[:limit]:
        print(f"| {k} | {raw[k] / 1024:.1f} | {100 * raw[k] / total:.1f} % | {gz[k] * scale / 1024:.1f} |")
    rest = rows[limit:]
    if rest:
        print(f"| ({len(rest)} more) | {sum(raw[k] for k in rest) / 1024:.1f} | | "
              f"{sum(gz[k] for k in rest) * scale / 1024:.1f} |")
    print(f"| **total** | {total / 1024:.1f} | | {sum(gz.values()) * scale / 1024:.1f} |")


def literals(src):
    """String literals of a Rust source, split at format placeholders."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        m = re.match(r'r(#*)"', src[i:])
        if m and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = '"' + m.group(1)
            j = src.find(end, i + len(m.group(0)))
            out.append(src[i + len(m.group(0)) : j])
            i = j + len(end)
            continue
        if src[i] == "'":
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", src[i:])
            i += len(m.group(0)) if m else 1
            continue
        if src[i] == '"':
            j, s = i + 1, []
            while src[j] != '"':
                if src[j] == "\\":
                    e = src[j + 1]
                    if e == "u":
                        k = src.index("}", j)
                        s.append(chr(int(src[j + 3 : k], 16)))
                        j = k + 1
                    elif e == "\n":
                        j += 2
                        while src[j] in " \t\n":
                            j += 1
                    else:
                        s.append({"n": "\n", "t": "\t", "0": "\0"}.get(e, e))
                        j += 2
                else:
                    s.append(src[j])
                    j += 1
            out.append("".join(s))
            i = j + 1
            continue
        i += 1
    return [p for lit in out for p in re.split(r"\{[^{}]*\}", lit)]


def data_report(data):
    print(f"\n### Data section: {len(data) / 1024:.1f} KiB raw, {len(gzip.compress(data, 9)) / 1024:.1f} KiB gzip\n")
    print("| what | raw KiB | gzip KiB (alone) |\n|---|---:|---:|")
    rest = data
    groups = defaultdict(list)
    base = os.path.join(ROOT, "crates", "vramfit-core", "data")
    for path in sorted(glob.glob(os.path.join(base, "**", "*"), recursive=True)):
        if os.path.isfile(path):
            text = open(path, "rb").read()
            if text and text in data:
                rel = os.path.relpath(path, base)
                groups["embedded: " + (rel.split(os.sep)[0] if os.sep in rel else rel)].append(text)
                rest = rest.replace(text, b"")
    seen = set()
    sources = glob.glob(os.path.join(ROOT, "src", "**", "*.rs"), recursive=True) + glob.glob(
        os.path.join(ROOT, "crates", "vramfit-core", "src", "**", "*.rs"), recursive=True
    )
    for path in sorted(sources):
        rel = os.path.relpath(path, ROOT).replace("crates/vramfit-core/src", "core").replace("src/", "app/", 1)
        parts = rel[:-3].split("/")
        key = "literals: " + "/".join(parts[:2])
        for lit in literals(open(path, encoding="utf-8").read()):
            b = lit.encode()
            if len(b) >= 4 and b not in seen and b in rest:
                seen.add(b)
                groups[key].append(b)
    for part in [b for v in groups.values() for b in v if v]:
        rest = rest.replace(part, b"", 1)
    groups["other (library strings, vtables, tables, zero fill)"] = [rest]
    for k in sorted(groups, key=lambda k: -sum(map(len, groups[k]))):
        body = b"".join(groups[k])
        if len(body) >= 512:
            print(f"| {k} | {len(body) / 1024:.1f} | {len(gzip.compress(body, 9)) / 1024:.1f} |")


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    final = float(args[args.index("--final-code-gzip") + 1]) if "--final-code-gzip" in args else None
    top = int(args[args.index("--top") + 1]) if "--top" in args else 40
    funcs, data = read_module(args[0])
    table(funcs, kind, "Code by kind", final, top)
    table(funcs, module, "Code by the module it serves", final, top)
    data_report(data)


if __name__ == "__main__":
    main()
