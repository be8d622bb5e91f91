#!/usr/bin/env python3
"""The long fuzz run behind docs/reliability.md (the suite runs a fast slice).

    python scripts/fuzz.py [--analysis N] [--format N] [--lsp N] [--seed S]

1. **Analysis** (default 100,000 inputs): mutations of every example, RFC use
   case and style fixture (deleted and duplicated spans, YAML punctuation,
   lone surrogates, NUL, tabs, U+2028, CR, BOMs, huge numbers, deep nesting,
   truncation), each parsed and checked (a random --target), with hover at a
   random offset; every 10th also completion, symbols, folding, inlay hints and
   every quick-fix; every 20th every conversion and a mutated shape.  Asserts:
   no exception, every range inside the text, fixes apply, conversion results
   check clean, nothing over 1 s.
2. **Formatter** (default 10,000 valid documents from tests/fuzzgen.py):
   house layout used (no fallback), idempotent, the data Flux reads unchanged,
   every comment kept once, end-of-line comments still at the end of a line,
   nothing over 1 s.
3. **Language server** (default 10,000 operations): one `jobspec-lsp` over
   stdio, random full and incremental edits, every request kind, and malformed
   frames (bad JSON, no method, wrong params, unknown methods, junk headers);
   asserts every request is answered, within 1 s, and the server exits cleanly.

Prints a summary and exits 1 when any count that must be 0 is not.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

import fuzzgen  # noqa: E402

from jobspec_lsp import convert  # noqa: E402
from jobspec_lsp.features import completion, fixes, hover, navigation  # noqa: E402
from jobspec_lsp.fmt import format as fmt  # noqa: E402
from jobspec_lsp.fmt import layout as lay  # noqa: E402
from jobspec_lsp.jobspec.document import parse  # noqa: E402
from jobspec_lsp.jobspec.tree import to_python  # noqa: E402
from jobspec_lsp.notations import shape  # noqa: E402
from jobspec_lsp.rules import analysis  # noqa: E402
from jobspec_lsp.rules.targets import TARGETS  # noqa: E402
from jobspec_lsp.text.edits import apply  # noqa: E402

SLOW = 1.0
SNIPPETS = [
    ":",
    ": ",
    "- ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a ",
    "*a",
    "!!str ",
    "!!python/object ",
    "#",
    "'",
    '"',
    "|",
    ">",
    "|+",
    "\n",
    "  ",
    "\t",
    "\r",
    "\r\n",
    "\u2028",
    "\ufeff",
    "\ud800",
    "\x00",
    "é",
    "🙂",
    "9" * 400,
    "1e400",
    "-.inf",
    ".nan",
    "0x",
    "yes",
    "0755",
    "1:30",
    "~",
    "<<: *a\n",
    "---\n",
    "...\n",
    "%YAML 1.1\n",
    "[" * 300,
    "{a: " * 200,
    "\\u00",
    "count: {min: 2, operator: '^', operand: 100}",
    "label: ",
    "slot: ",
    "type: ",
    "per_slot: ",
    "with:\n",
    "duration: ",
    "dependencies: ",
    "files: ",
]


def seeds() -> list[tuple[str, str]]:
    out = []
    for pattern in (
        "examples/*",
        "tests/data/rfc/*/*",
        "tests/data/format/*.in.*",
        "tests/data/*/*.jobspec.yaml",
    ):
        for p in sorted(REPO.glob(pattern)):
            if p.is_file():
                lang = "json" if p.suffix == ".json" else "yaml"
                out.append((p.read_text(encoding="utf-8"), lang))
    r = random.Random(7)
    while len(out) < 120:
        out.append((fuzzgen.generate(r), "yaml"))
    return out


def mutate(text: str, r: random.Random) -> str:
    for _ in range(r.choice([1, 1, 2, 3])):
        n = len(text)
        op = r.random()
        i = r.randint(0, n)
        if op < 0.3:
            text = text[:i] + r.choice(SNIPPETS) + text[i:]
        elif op < 0.5 and n:
            j = min(n, i + r.randint(1, 40))
            text = text[:i] + text[j:]
        elif op < 0.6 and n:
            j = min(n, i + r.randint(1, 80))
            text = text[:j] + text[i:j] + text[j:]
        elif op < 0.7:
            text = text[:i]
        elif op < 0.8 and n:
            text = text[:i] + r.choice("abc019 -:#[]{}'\"\t\n") + text[i + 1 :]
        elif op < 0.9:
            lines = text.split("\n")
            r.shuffle(lines)
            text = "\n".join(lines)
        else:
            text = text.replace("\n", r.choice(["\r\n", "\r", "\n\n"]))
    return text


class Report:
    def __init__(self, name: str):
        self.name = name
        self.counts: Counter = Counter()
        self.examples: dict[str, str] = {}
        self.slowest = 0.0

    def fail(self, kind: str, detail: str) -> None:
        self.counts[kind] += 1
        self.examples.setdefault(kind, detail[:400])

    def timed(self, seconds: float, what: str) -> None:
        self.slowest = max(self.slowest, seconds)
        if seconds > SLOW:
            self.fail("over 1 s", what)


# ------------------------------------------------------------------- analysis
def in_bounds(text: str, start: int, end: int) -> bool:
    return 0 <= start <= end <= len(text)


def run_analysis(n: int, seed: int) -> Report:
    rep = Report("analysis")
    base = seeds()
    r = random.Random(seed)
    for k in range(n):
        text, lang = r.choice(base)
        text = mutate(text, r)
        if r.random() < 0.1:
            lang = "json" if lang == "yaml" else "yaml"
        t0 = time.perf_counter()
        step = "parse"
        try:
            doc = parse(text, lang)
            step = "check"
            diags = analysis.check(doc, target=r.choice(TARGETS))
            for d in diags:
                if not in_bounds(text, d.start, d.end):
                    rep.fail("range outside the text", f"{d.code} {d.start}:{d.end} {text!r}")
            step = "hover"
            off = r.randint(0, len(text))
            h = hover.hover(doc, off)
            if h is not None and not in_bounds(text, h.start, h.end):
                rep.fail("range outside the text", f"hover {text!r}")
            if k % 10 == 0:
                step = "completion"
                cands, s, e = completion.complete_at(text, off, lang)
                if not in_bounds(text, s, e):
                    rep.fail("range outside the text", f"completion {text!r}")
                step = "navigation"
                navigation.document_symbols(doc)
                for a, b in navigation.folding_ranges(doc):
                    if not in_bounds(text, a, b):
                        rep.fail("range outside the text", f"folding {text!r}")
                for at, _label in navigation.inlay_hints(doc, 0, len(text)):
                    if not in_bounds(text, at, at):
                        rep.fail("range outside the text", f"inlay {text!r}")
                step = "fixes"
                for d in diags:
                    for fix in fixes.fixes_for(doc, d):
                        edits = [(e.start, e.end, e.text) for e in fix.edits]
                        if any(not in_bounds(text, a, b) for a, b, _ in edits):
                            rep.fail("range outside the text", f"fix {d.code} {text!r}")
                        elif apply(text, edits) is None:
                            rep.fail("overlapping fix edits", f"{d.code} {text!r}")
            if k % 20 == 0:
                step = "conversions"
                for conv, rules in (
                    (convert.to_v1(text, lang), "v1"),
                    (convert.to_canonical(text, lang), "canonical"),
                ):
                    if conv.ok and conv.text is not None:
                        errs = [
                            d
                            for d in analysis.check(conv.text, language=lang, version_rules=rules)
                            if d.severity.label == "error"
                        ]
                        if errs:
                            rep.fail("conversion result not clean", f"{errs[0].code} {text!r}")
                convert.to_psij(text, lang)
                step = "shape"
                src = mutate(
                    r.choice(
                        [
                            "slot=2/core",
                            "node=2/slot=4{core=2,gpu}",
                            "slot/node",
                            "slot=1-4/core=[2,4]",
                        ]
                    ),
                    r,
                )
                try:
                    res = shape.expand(src)
                except shape.ShapeError:
                    res = None
                if res is not None:
                    again = shape.expand(shape.collapse(res))
                    if again != res:
                        rep.fail("shape round trip", src)
        except Exception as exc:  # noqa: BLE001 - this is what is counted
            rep.fail(f"exception in {step}", f"{type(exc).__name__}: {exc} :: {text!r}")
        rep.timed(time.perf_counter() - t0, f"{step} {text[:200]!r}")
        rep.counts["inputs"] += 1
    return rep


# ------------------------------------------------------------------- formatter
_EOL = re.compile(r"\S.*?\s(# c\d+)\b")


def run_format(n: int, seed: int) -> Report:
    rep = Report("formatter")
    r = random.Random(seed)
    while rep.counts["documents"] < n:
        text = fuzzgen.generate(r)
        doc = parse(text)
        if doc.root is None or any(p.code in ("JS903", "JS906", "JS907") for p in doc.problems):
            rep.counts["generated, not valid YAML Flux reads (skipped)"] += 1
            continue
        rep.counts["documents"] += 1
        sort = r.random() < 0.8
        opts = fmt.FormatOptions(sort_keys=sort, line_length=r.choice([40, 80, 120]))
        t0 = time.perf_counter()
        try:
            res = fmt.format_result(text, "yaml", opts)
        except fmt.FormatError as exc:
            rep.fail("refused", f"{exc.message} :: {text!r}")
            continue
        except Exception as exc:  # noqa: BLE001
            rep.fail("exception", f"{type(exc).__name__}: {exc} :: {text!r}")
            continue
        rep.timed(time.perf_counter() - t0, text[:200])
        out = res.text
        if res.why:
            rep.fail("fallback layout", f"{res.layout}: {res.why} :: {text!r}")
        after = parse(out)
        if after.root is None or not fmt._same(to_python(after.root), to_python(doc.root)):
            rep.fail("meaning changed", text)
        if sorted(lay.comment_texts(out)) != sorted(lay.comment_texts(text)):
            rep.fail("comment lost", text)
        if fmt.format_result(out, "yaml", opts).text != out:
            rep.fail("not idempotent", text)
        # an end-of-line comment stays at the end of a line, after the token it
        # followed (or, when two met on one line, just above that line)
        out_lines = out.split("\n")
        where = {}
        for i, line in enumerate(out_lines):
            for m in re.finditer(r"# c\d+\b", line):
                where[m.group(0)] = i
        for line in text.replace("\r\n", "\n").split("\n"):
            m = re.search(r"(\S+)\s+(# c\d+)\b", line)
            if not m or line.lstrip().startswith("#"):
                continue
            if m.group(1).rstrip(",").endswith(("]", "}")):
                continue  # it followed a whole flow collection: its end may be on any line
            token, note = m.group(1).strip(",:[]{}-"), m.group(2)
            i = where.get(note)
            if i is None:
                continue
            here = out_lines[i]
            if here.lstrip().startswith(note):
                rep.counts["end-of-line comments written above their line"] += 1
                here = out_lines[i + 1] if i + 1 < len(out_lines) else ""
            if token and token not in here and not token.startswith(("'", '"', "|", ">")):
                rep.fail("comment moved away from its token", f"{note} {token!r} :: {text!r}")
    return rep


# ------------------------------------------------------------------- language server
class Server:
    def __init__(self):
        exe = Path(sys.executable).parent / "jobspec-lsp"
        self.proc = subprocess.Popen(
            [str(exe)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.inbox: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        assert out is not None
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                k, _, v = line.decode("latin-1").partition(":")
                headers[k.strip().lower()] = v.strip()
            body = out.read(int(headers.get("content-length", "0")))
            self.inbox.put(json.loads(body))

    def send_raw(self, payload: bytes, header: bytes = b"") -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(header + b"Content-Length: %d\r\n\r\n" % len(payload) + payload)
        self.proc.stdin.flush()

    def send(self, msg: dict) -> None:
        self.send_raw(json.dumps({"jsonrpc": "2.0", **msg}).encode())

    def request(self, method: str, params, timeout: float = 10.0):
        self.next_id += 1
        rid = self.next_id
        self.send({"id": rid, "method": method, "params": params})
        return self.wait(rid, timeout)

    def wait(self, rid, timeout: float):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout"
            try:
                msg = self.inbox.get(timeout=left)
            except queue.Empty:
                return "timeout"
            if msg is None:
                return "closed"
            if "method" in msg and "id" in msg:  # the server asks (configuration, ...)
                self.send(
                    {"id": msg["id"], "result": [{}] if "configuration" in msg["method"] else None}
                )
                continue
            if msg.get("id") == rid:
                return msg


def utf16_position(text: str, offset: int) -> dict:
    line_start = 0
    line = 0
    i = 0
    while i < offset:
        ch = text[i]
        if ch == "\n" or (ch == "\r" and text[i + 1 : i + 2] != "\n"):
            line += 1
            line_start = i + 1
        i += 1
    units = sum(2 if ord(c) > 0xFFFF else 1 for c in text[line_start:offset])
    return {"line": line, "character": units}


def run_lsp(n: int, seed: int) -> Report:
    rep = Report("language server")
    r = random.Random(seed)
    base = [t for t, lang in seeds() if lang == "yaml"][:40]
    srv = Server()
    got = srv.request(
        "initialize",
        {
            "processId": None,
            "capabilities": {
                "textDocument": {"completion": {"completionItem": {"snippetSupport": True}}}
            },
        },
    )
    if not isinstance(got, dict) or "result" not in got:
        rep.fail("no answer", f"initialize: {got}")
        return rep
    srv.send({"method": "initialized", "params": {}})
    docs = {}
    for i in range(3):
        uri = f"file:///fuzz/doc{i}.jobspec.yaml"
        docs[uri] = [r.choice(base), 1]
        srv.send(
            {
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {
                        "uri": uri,
                        "languageId": "yaml",
                        "version": 1,
                        "text": docs[uri][0],
                    }
                },
            }
        )
    kinds = [
        "hover",
        "completion",
        "documentSymbol",
        "foldingRange",
        "inlayHint",
        "codeAction",
        "formatting",
        "definition",
        "references",
        "diagnostic",
    ]
    ops = 0
    while ops < n:
        uri = r.choice(list(docs))
        text, version = docs[uri]
        roll = r.random()
        ops += 1
        rep.counts["operations"] += 1
        if roll < 0.3:  # an edit
            version += 1
            if r.random() < 0.3:
                new = mutate(r.choice(base), r)
                change = {"text": new}
            else:
                a = r.randint(0, len(text))
                b = min(len(text), a + r.randint(0, 20))
                ins = r.choice(SNIPPETS[:40]) if r.random() < 0.7 else ""
                change = {
                    "range": {"start": utf16_position(text, a), "end": utf16_position(text, b)},
                    "text": ins,
                }
                new = text[:a] + ins + text[b:]
            docs[uri] = [new, version]
            srv.send(
                {
                    "method": "textDocument/didChange",
                    "params": {
                        "textDocument": {"uri": uri, "version": version},
                        "contentChanges": [change],
                    },
                }
            )
            rep.counts["edits"] += 1
            continue
        if roll < 0.35:  # a malformed frame
            bad = r.choice(
                [
                    b"{not json",
                    b"[]",
                    b'{"jsonrpc": "2.0", "id": 99999}',
                    b'{"jsonrpc": "2.0", "id": 99998, "method": "textDocument/hover", "params": 3}',
                    b'{"jsonrpc": "2.0", "id": 99997, "method": "no/such/method", "params": {}}',
                    b'{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {}}',
                    b"\xff\xfe",
                ]
            )
            srv.send_raw(bad, header=r.choice([b"", b"X-Junk: 1\r\n"]))
            rep.counts["malformed frames"] += 1
            continue
        kind = r.choice(kinds)
        off = r.randint(0, len(text))
        pos = utf16_position(text, off)
        doc_id = {"uri": uri}
        params = {"textDocument": doc_id}
        if kind in ("hover", "completion", "definition"):
            params["position"] = pos
        elif kind == "references":
            params.update(position=pos, context={"includeDeclaration": True})
        elif kind == "inlayHint":
            params["range"] = {
                "start": {"line": 0, "character": 0},
                "end": utf16_position(text, len(text)),
            }
        elif kind == "codeAction":
            params.update(range={"start": pos, "end": pos}, context={"diagnostics": []})
        elif kind == "formatting":
            params["options"] = {"tabSize": 2, "insertSpaces": True}
        t0 = time.perf_counter()
        ans = srv.request(f"textDocument/{kind}", params)
        took = time.perf_counter() - t0
        rep.counts["requests"] += 1
        if not isinstance(ans, dict):
            rep.fail("no answer", f"{kind}: {ans}")
            if ans == "closed":
                break
            continue
        if "error" in ans and ans["error"].get("code") not in (-32800,):  # cancelled is fine
            rep.fail("error answer", f"{kind}: {ans['error']}")
        rep.timed(took, f"{kind} on {len(text)} characters")
    # the unknown method and bad params above were answered with errors, never a crash
    ans = srv.request("shutdown", None)
    if not isinstance(ans, dict):
        rep.fail("no answer", f"shutdown: {ans}")
    srv.send({"method": "exit"})
    try:
        code = srv.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        srv.proc.kill()
        code = "did not exit"
    if code != 0:
        rep.fail("unclean exit", str(code))
    return rep


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--analysis", type=int, default=100_000)
    ap.add_argument("--format", type=int, default=10_000)
    ap.add_argument("--lsp", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    reports = []
    for fn, n in ((run_analysis, args.analysis), (run_format, args.format), (run_lsp, args.lsp)):
        if n <= 0:
            continue
        t0 = time.perf_counter()
        rep = fn(n, args.seed)
        rep.counts["seconds"] = round(time.perf_counter() - t0)
        reports.append(rep)
    bad = 0
    info = (
        "inputs",
        "documents",
        "operations",
        "edits",
        "requests",
        "malformed frames",
        "seconds",
        "generated, not valid YAML Flux reads (skipped)",
        "end-of-line comments written above their line",
    )
    for rep in reports:
        print(f"== {rep.name}: slowest {rep.slowest * 1000:.0f} ms")
        for k, v in sorted(rep.counts.items()):
            print(f"   {k}: {v}")
            if k not in info:
                bad += v
        for k, ex in rep.examples.items():
            print(f"   e.g. {k}: {ex}")
    print("failures:", bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
