#!/usr/bin/env python3
"""README.md's "Figures" table from the records scripts write.

usage: figures.py RECORDS_DIR E2E_LOG [README]

RECORDS_DIR holds one file per figure, "SECONDS DATE" (setup-fresh.txt,
setup-present.txt, test-cold.txt, test-warm.txt, build-clean.txt) and
dist.txt ("MODULES WASM_RAW WASM_GZIP JS_RAW JS_GZIP"), written by
scripts/setup.sh, scripts/test.sh and scripts/figures.sh. E2E_LOG is the
last end-to-end log; its "figure: ..." lines come from
tests/e2e/perf.test.mjs. A figure with no record says so and names the
command that records it: nothing here is typed by hand.
"""

import re
import sys
from pathlib import Path

BEGIN = "<!-- figures:begin -->"
END = "<!-- figures:end -->"


def duration(seconds: float) -> str:
    if seconds < 10:
        return f"{seconds:.1f} s"
    minutes, s = divmod(round(seconds), 60)
    return f"{minutes} min {s} s" if minutes else f"{s} s"


def timed(records: Path, name: str) -> str | None:
    path = records / f"{name}.txt"
    if not path.exists():
        return None
    seconds, date = path.read_text().split()[:2]
    return f"{duration(float(seconds))} ({date})"


def perf(log: Path, pattern: str) -> str | None:
    if not log.exists():
        return None
    for line in log.read_text(errors="replace").splitlines():
        m = re.search(r"figure: " + pattern, line)
        if m:
            return m.group(1)
    return None


def rows(records: Path, log: Path) -> list[tuple[str, str | None, str]]:
    dist = records / "dist.txt"
    wasm = js = None
    if dist.exists():
        n, wraw, wgz, jraw, jgz = (int(x) for x in dist.read_text().split()[:5])
        wasm = f"{n} modules, {wraw:,} B raw, {wgz:,} B gzip -9 in all"
        js = f"{jraw:,} B raw, {jgz:,} B gzip -9"
    return [
        ("`make setup` on a machine without the tools (Rust target, trunk, "
         "wasm-bindgen-cli, wasm_split_cli, chromium, npm packages, crates)",
         timed(records, "setup-fresh"), "`make setup` (records its time)"),
        ("`make setup` again (everything present)",
         timed(records, "setup-present"), "`make setup`"),
        ("`make test` with no build yet (every crate compiled, native and wasm32)",
         timed(records, "test-cold"), "`make test` in a fresh clone"),
        ("`make test` again (warm)", timed(records, "test-warm"), "`make test`"),
        ("clean release build (`trunk build --release`)",
         timed(records, "build-clean"), "`scripts/figures.sh`"),
        ("release `.wasm` (main module and lazily loaded chunks, wasm-opt -Oz)",
         wasm, "`scripts/figures.sh`"),
        ("release JS (glue, chunk loader, boot.js)", js, "`scripts/figures.sh`"),
        ("cold load → first result (headless Chromium, local server)",
         perf(log, r"cold load → first result: median ([0-9.]+ ms)"),
         "`make test` (tests/e2e/perf.test.mjs)"),
        ("input event → ring attribute updated (median)",
         perf(log, r"input → ring attribute updated: median ([0-9.]+ ms)"),
         "`make test` (tests/e2e/perf.test.mjs)"),
        ("input event → next painted frame (median)",
         perf(log, r"input → next frame painted: median ([0-9.]+ ms)"),
         "`make test` (tests/e2e/perf.test.mjs)"),
    ]


def table(records: Path, log: Path) -> str:
    out = ["| figure | value | recorded by |", "|---|---|---|"]
    for name, value, how in rows(records, log):
        out.append(f"| {name} | {value or 'not recorded yet'} | {how} |")
    return "\n".join(out)


def main() -> int:
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    text = table(Path(sys.argv[1]), Path(sys.argv[2]))
    print(text)
    if len(sys.argv) == 4:
        readme = Path(sys.argv[3])
        body = readme.read_text()
        start, end = body.find(BEGIN), body.find(END)
        if start < 0 or end < start:
            print(f"{readme}: no {BEGIN} … {END} block", file=sys.stderr)
            return 1
        body = body[: start + len(BEGIN)] + "\n" + text + "\n" + body[end:]
        readme.write_text(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
