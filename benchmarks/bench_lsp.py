"""Diagnostics latency over stdio: jobspec-lsp beside yaml-language-server, in one run.

    python benchmarks/bench_lsp.py [--corpus DIR] [--changes N] [--rfc-changes N]
                                   [--jobspec-lsp CMD] [--no-yamlls] [--timeout S]

Inputs: (a) the RFC example jobspecs (``spec_14/*.yaml`` and ``spec_25/*.yaml`` of
the RFC data, default ``../shared/corpus/rfc/data``) and (b) a generated ~300 KB
jobspec (``benchmarks/generate.py``).  For each server and file: ``didOpen`` and
the time until the first ``textDocument/publishDiagnostics`` for that uri (and
that version, when the server reports versions); then full-text ``didChange``
edits that flip the first ``count: <int>`` of the resources to ``count: 00`` and
back, so the diagnostics change on every edit, each one waited for before the
next.  A latency runs from writing the notification to reading the publish.

Edits per file: ``--changes`` (default 20) for the ~300 KB file and
``--rfc-changes`` (default 4) for each of the 25 RFC files.  yaml-language-server
debounces validation by 200 ms (``validationDelayMs``), so every event costs it
at least that: 25 files x 21 events would be ~2 minutes; 25 x 5 keeps the RFC set
around half a minute for both servers together (still >100 edits per server).
The debounce is part of what its users feel, so nothing works around it.

Reports per server and input the median and p90 in ms (p90 by nearest rank),
timeouts, and the ratio yaml-language-server / jobspec-lsp of the medians.
Prints a table; asserts nothing; exits 0.  Machines here are noisy: compare
the two servers of one run, not runs with each other.

yaml-language-server is installed on first use (``npm install --no-audit
--no-fund`` in benchmarks/yamlls/, version pinned by package.json and its lock
file) and configured through ``workspace/didChangeConfiguration`` plus answers to
its ``workspace/configuration`` requests with
``{"yaml": {"validate": true, "schemas": {<schema uri>: ["*.yaml"]},
"schemaStore": {"enable": false}}}`` (the schema store is off so that no network
fetch of its catalogue runs during the measurement).  Before measuring, each
server is shown a broken jobspec and must report diagnostics for it (for
yaml-language-server: from the RFC 14 schema copy), or the run says loudly that
its numbers mean nothing.

The RFC 14 schema (``spec_14/schema.json``) and its faults.  The copy written to
benchmarks/yamlls/rfc14-schema.json fixes only the one that stops it loading:

* FIXED: ``attributes.system.dependencies`` is ``{"$ref":
  "file:data/spec_26/schema.json"}``, a path relative to the RFC repository
  that no validator resolves.  The copy inlines the RFC 26 schema as
  ``definitions.spec_26_dependencies`` (without its draft-04 ``$schema``) and
  points the ``$ref`` there; everything else is kept as published.
* The ``idset`` and ``range_string`` patterns use the PCRE idiom ``[^][]``
  ("neither bracket").  In JavaScript ``[^]`` is "any character" and ``[]`` an
  empty class, so yaml-language-server (which compiles patterns with
  ``new RegExp``; the ``u`` flag fails on them, the retry without it succeeds)
  only accepts one-character or bracketed strings: ``count: "1-3"``, ``"2+"``,
  ``"1,3"`` are rejected.
* ``count`` is a ``oneOf`` of integer, idset, range string and range dict, and a
  string such as ``"4"`` or ``"[1-3]"`` matches both string patterns, so
  ``oneOf`` rejects every count string that is valid.
* ``attributes.system.duration`` is any number (no unit check), ``version`` any
  integer, V1 rules (RFC 25) are not expressed, task ``slot`` is not checked
  against the labels, and ``tasks[].attributes`` requires string values beside
  ``environment``.  These make it miss errors rather than mis-report, and do not
  affect the latency measured here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import generate  # noqa: E402

YAMLLS = HERE / "yamlls"
YAMLLS_BIN = YAMLLS / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
SCHEMA_COPY = YAMLLS / "rfc14-schema.json"
DOC_DIR = "file:///tmp/jobspec-bench-lsp"  # documents are only ever sent, never read from disk

BROKEN = """\
version: 1
resources:
  - type: node
    count: 0
    with:
      - type: slot
        count: 1
        label: default
        with:
          - type: core
            count: 2
tasks:
  - command: [app]
    slot: default
    count:
      per_slot: 1
attributes:
  system:
    duration: "1h"
"""

_COUNT = re.compile(r"^(\s*(?:- )?count:[ \t]*)([0-9]+)[ \t]*$", re.M)


# ---------------------------------------------------------------------------- client
class Client:
    """A small LSP client: Content-Length framed JSON-RPC over a subprocess's pipes."""

    def __init__(self, name: str, cmd: list[str], settings: dict | None):
        self.name, self.cmd, self.settings = name, cmd, settings
        self.next_id = 0
        self.pending: dict[int, asyncio.Future] = {}
        self.publishes: dict[str, list[tuple[float, dict]]] = {}
        self.wake = asyncio.Event()
        self.configured = asyncio.Event()
        self.dead = False
        self.stderr = tempfile.TemporaryFile()

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr
        )
        self.reader = asyncio.create_task(self._read())
        caps = {
            "workspace": {
                "configuration": True,
                "didChangeConfiguration": {"dynamicRegistration": False},
            },
            "textDocument": {
                "synchronization": {"dynamicRegistration": False},
                "publishDiagnostics": {"versionSupport": True},
            },
        }
        await self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": None,
                "clientInfo": {"name": "bench_lsp"},
                "capabilities": caps,
            },
            timeout=60,
        )
        self.notify("initialized", {})
        if self.settings is not None:
            self.notify("workspace/didChangeConfiguration", {"settings": self.settings})
            try:  # the server pulls its settings: wait until it has them
                await asyncio.wait_for(self.configured.wait(), 30)
            except asyncio.TimeoutError:
                print(f"  {self.name}: never asked for its configuration", file=sys.stderr)
        await self.drain()

    async def _read(self) -> None:
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = await out.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    key, _, value = line.decode("ascii").partition(":")
                    if key.strip().lower() == "content-length":
                        length = int(value)
                msg = json.loads(await out.readexactly(length))
                now = time.perf_counter()
                method = msg.get("method")
                if method is not None and "id" in msg:  # a request from the server
                    self._answer(msg)
                elif method == "textDocument/publishDiagnostics":
                    p = msg["params"]
                    self.publishes.setdefault(p["uri"], []).append((now, p))
                    self.wake.set()
                elif method is None and msg.get("id") in self.pending:
                    fut = self.pending.pop(msg["id"])
                    if not fut.done():
                        fut.set_result(msg)
        except (asyncio.IncompleteReadError, ConnectionError, ValueError) as err:
            print(f"  {self.name}: reading failed: {err!r}", file=sys.stderr)
        finally:
            self.dead = True
            self.wake.set()
            for fut in self.pending.values():
                if not fut.done():
                    fut.set_exception(ConnectionError(f"{self.name} exited"))

    def _answer(self, msg: dict) -> None:
        result = None
        if msg["method"] == "workspace/configuration":
            result = [self._section(item.get("section")) for item in msg["params"]["items"]]
            self.configured.set()
        self._write({"jsonrpc": "2.0", "id": msg["id"], "result": result})

    def _section(self, section):
        value = self.settings or {}
        for part in (section or "").split(".") if section else []:
            value = value.get(part) if isinstance(value, dict) else None
        return value if section else (self.settings or None)

    def _write(self, msg: dict) -> None:
        if self.proc.stdin.is_closing():
            return
        data = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(data), data))

    async def drain(self) -> None:
        try:
            await self.proc.stdin.drain()
        except ConnectionError:
            pass

    def notify(self, method: str, params) -> None:
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    async def request(self, method: str, params, timeout: float = 30):
        self.next_id += 1
        fut = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = fut
        self._write({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        await self.drain()
        return await asyncio.wait_for(fut, timeout)

    async def send_timed(self, method: str, params) -> float:
        t0 = time.perf_counter()
        self.notify(method, params)
        await self.drain()
        return t0

    async def wait_publish(self, uri: str, start: int, version: int | None, timeout: float):
        """The first publish for ``uri`` after index ``start`` (of ``version``, when the
        server reports versions), as (time, params); None on timeout or exit."""
        deadline = time.perf_counter() + timeout
        while True:
            pubs = self.publishes.get(uri, [])
            for t, p in pubs[start:]:
                v = p.get("version")
                if v is None or version is None or v == version:
                    return t, p
            start = len(pubs)
            remaining = deadline - time.perf_counter()
            if remaining <= 0 or self.dead:
                return None
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), remaining)
            except asyncio.TimeoutError:
                return None

    def count(self, uri: str) -> int:
        return len(self.publishes.get(uri, []))

    async def stop(self) -> None:
        try:
            if not self.dead:
                await self.request("shutdown", None, timeout=10)
                self.notify("exit", None)
                await self.drain()
                await asyncio.wait_for(self.proc.wait(), 10)
        except Exception:  # noqa: BLE001 - a server that will not stop is killed
            pass
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        self.reader.cancel()

    def stderr_tail(self, n: int = 15) -> str:
        self.stderr.seek(0)
        return "\n".join(self.stderr.read().decode(errors="replace").splitlines()[-n:])


# ---------------------------------------------------------------------------- measuring
def signature(params: dict) -> str:
    return json.dumps(
        sorted(
            (d.get("message", ""), json.dumps(d.get("range"), sort_keys=True))
            for d in params.get("diagnostics", [])
        )
    )


def flipped(text: str) -> str:
    """``text`` with the first block ``count: <int>`` set to ``00`` (zero, and a length
    that changes as typing changes it, so every later node moves; or, failing that, with
    ``version`` a string): invalid for both servers, so the diagnostics change."""
    new, n = _COUNT.subn(r"\g<1>00", text, count=1)
    if n and new != text:
        return new
    return re.sub(r"^version:.*$", 'version: "one"', text, count=1, flags=re.M)


RANGED = True  # edits as editors send them: the changed range only (--full-text: the text)


def ranged(old: str, new: str) -> dict:
    """The LSP change that turns ``old`` into ``new``: the range of what differs (in
    UTF-16 units; these texts are ASCII) and its new text."""
    p = 0
    n = min(len(old), len(new))
    while p < n and old[p] == new[p]:
        p += 1
    s = 0
    while s < n - p and old[-1 - s] == new[-1 - s]:
        s += 1

    def at(i: int) -> dict:
        line = old.count("\n", 0, i)
        return {"line": line, "character": i - (old.rfind("\n", 0, i) + 1)}

    return {"range": {"start": at(p), "end": at(len(old) - s)}, "text": new[p : len(new) - s]}


class Result:
    def __init__(self):
        self.opens: list[float | None] = []
        self.edits: list[float | None] = []
        self.unchanged = 0  # edits whose published diagnostics equal the previous ones
        self.flagged_open: list[str] = []  # files with diagnostics as opened (unmodified)
        self.skipped = 0  # edits not made after a timeout


async def run_file(
    client: Client, name: str, text: str, changes: int, timeout: float, res: Result
) -> None:
    uri = f"{DOC_DIR}/{name}"
    texts = (text, flipped(text))
    start = client.count(uri)
    t0 = await client.send_timed(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
    )
    got = await client.wait_publish(uri, start, 1, timeout)
    res.opens.append(got[0] - t0 if got else None)
    if got is None:
        res.skipped += changes
    else:
        if got[1].get("diagnostics"):
            res.flagged_open.append(f"{name} ({len(got[1]['diagnostics'])})")
        prev = signature(got[1])
        for i in range(1, changes + 1):
            version = i + 1
            start = client.count(uri)
            change = ranged(texts[(i - 1) % 2], texts[i % 2]) if RANGED else {"text": texts[i % 2]}
            t0 = await client.send_timed(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
            )
            got = await client.wait_publish(uri, start, version, timeout)
            if got is None:  # state unknown from here on: stop editing this file
                res.edits.append(None)
                res.skipped += changes - i
                break
            res.edits.append(got[0] - t0)
            sig = signature(got[1])
            res.unchanged += sig == prev
            prev = sig
    start = client.count(uri)
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    await client.drain()
    await client.wait_publish(uri, start, None, min(1.0, timeout))  # both clear on close


async def check_broken(client: Client, timeout: float) -> tuple[bool, str]:
    """Open a broken jobspec; the server must report diagnostics (this also warms it up:
    schema loading, JIT, lazy imports)."""
    uri = f"{DOC_DIR}/broken-check.jobspec.yaml"
    start = client.count(uri)
    await client.send_timed(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": BROKEN}},
    )
    got = await client.wait_publish(uri, start, 1, timeout)
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    await client.drain()
    await client.wait_publish(uri, client.count(uri), None, 1.0)
    if got is None:
        return False, "no diagnostics published (timeout)"
    diags = got[1].get("diagnostics", [])
    if not diags:
        return False, "published NO diagnostics for a broken file"
    sources = sorted({str(d.get("source", "?")) for d in diags})
    msgs = "; ".join(
        f"{d['range']['start']['line'] + 1}: {d.get('message', '').splitlines()[0]}"
        for d in diags[:4]
    )
    return True, f"{len(diags)} diagnostics from {', '.join(sources)} -- {msgs}"


async def measure(name, cmd, settings, inputs, timeout_small, timeout_big):
    client = Client(name, cmd, settings)
    try:
        await client.start()
    except Exception as err:  # noqa: BLE001
        print(f"  {name}: could not start ({err!r})\n{client.stderr_tail()}", file=sys.stderr)
        if getattr(client, "proc", None) and client.proc.returncode is None:
            client.proc.kill()
        return None, (False, f"could not start: {err!r}")
    ok = await check_broken(client, 3 * timeout_small)
    results = {}
    for label, files, changes, big in inputs:
        res = Result()
        t = time.perf_counter()
        for fname, text in files:
            await run_file(client, fname, text, changes, timeout_big if big else timeout_small, res)
        results[label] = res
        print(f"  {name}: {label} done in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    await client.stop()
    if client.dead and client.proc.returncode not in (0, None):
        print(
            f"  {name} exited with {client.proc.returncode}:\n{client.stderr_tail()}",
            file=sys.stderr,
        )
    return results, ok


# ---------------------------------------------------------------------------- setup
def write_schema_copy(corpus: Path) -> Path:
    """RFC 14's schema with RFC 26's inlined for its ``file:`` dependencies ``$ref``."""
    schema = json.loads((corpus / "spec_14" / "schema.json").read_text())
    deps = json.loads((corpus / "spec_26" / "schema.json").read_text())
    deps.pop("$schema", None)  # draft-04 marker; the subschema lives in a draft-07 document
    schema.setdefault("definitions", {})["spec_26_dependencies"] = deps
    system = schema["properties"]["attributes"]["properties"]["system"]["properties"]
    system["dependencies"] = {"$ref": "#/definitions/spec_26_dependencies"}
    text = json.dumps(schema, indent=2) + "\n"
    if "file:" in text:
        raise SystemExit("rfc14 schema copy still has a file: reference")
    if not SCHEMA_COPY.exists() or SCHEMA_COPY.read_text() != text:
        SCHEMA_COPY.write_text(text)
    return SCHEMA_COPY


def pinned_yamlls() -> str:
    return json.loads((YAMLLS / "package.json").read_text())["dependencies"]["yaml-language-server"]


def installed_yamlls() -> str | None:
    pkg = YAMLLS_BIN.parent.parent / "package.json"
    if not (YAMLLS_BIN.exists() and pkg.exists()):
        return None
    return json.loads(pkg.read_text()).get("version")


def ensure_yamlls() -> str | None:
    """Install the pinned yaml-language-server if it is missing; its version, or None."""
    if installed_yamlls() != pinned_yamlls():
        if not (shutil.which("npm") and shutil.which("node")):
            print("  node/npm not found: yaml-language-server skipped", file=sys.stderr)
            return None
        print(
            f"  installing yaml-language-server {pinned_yamlls()} into {YAMLLS} ...",
            file=sys.stderr,
        )
        done = subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=YAMLLS
        )
        if done.returncode != 0:
            print("  npm install failed: yaml-language-server skipped", file=sys.stderr)
            return None
    return installed_yamlls()


def version_of(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except Exception:  # noqa: BLE001
        return "?"


# ---------------------------------------------------------------------------- report
def stats(values):
    """(median, p90, samples, timeouts); p90 by nearest rank."""
    vals = sorted(v for v in values if v is not None)
    misses = sum(v is None for v in values)
    if not vals:
        return None, None, 0, misses
    p90 = vals[max(0, -(-9 * len(vals) // 10) - 1)]
    return statistics.median(vals), p90, len(vals), misses


def ms(v) -> str:
    return "timeout" if v is None else f"{v * 1000:.1f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--corpus",
        type=Path,
        default=HERE.parent.parent / "shared" / "corpus" / "rfc" / "data",
        help="RFC data directory with spec_14/ spec_25/ spec_26/",
    )
    ap.add_argument("--changes", type=int, default=20, help="edits of the ~300 KB file")
    ap.add_argument("--rfc-changes", type=int, default=4, help="edits of each RFC file")
    ap.add_argument(
        "--jobspec-lsp",
        metavar="CMD",
        default=str(Path(sys.executable).parent / "jobspec-lsp"),
        help="command starting jobspec-lsp on stdio",
    )
    ap.add_argument("--no-yamlls", action="store_true", help="measure jobspec-lsp only")
    ap.add_argument(
        "--sizes",
        default="300000,1000000,3000000",
        help="characters of the generated jobspecs, comma-separated",
    )
    ap.add_argument(
        "--full-text",
        action="store_true",
        help="send each edit as the whole text (default: the changed range, as editors do)",
    )
    ap.add_argument(
        "--timeout",
        type=float,
        default=10,
        help="seconds to wait for one publish of an RFC file (x6 for ~300 KB)",
    )
    args = ap.parse_args(argv)

    rfc = [
        (f"{p.parent.name}-{p.stem}.jobspec.yaml", p.read_text())
        for spec in ("spec_14", "spec_25")
        for p in sorted((args.corpus / spec).glob("*.yaml"))
    ]
    global RANGED
    RANGED = not args.full_text
    inputs = []
    if rfc:
        inputs.append((f"RFC examples ({len(rfc)})", rfc, args.rfc_changes, False))
    else:
        print(f"(no RFC examples under {args.corpus})")
    for size in (int(x) for x in args.sizes.split(",") if x.strip()):
        big_text = generate(size)
        inputs.append(
            (
                f"generated {len(big_text) / 1000:.0f} KB",
                [(f"generated-{size}.jobspec.yaml", big_text)],
                args.changes,
                True,
            )
        )

    ours = shlex.split(args.jobspec_lsp)
    servers = [("jobspec-lsp", ours, None)]
    header = [f"python {sys.version.split()[0]}", version_of(ours + ["--version"])]
    if not args.no_yamlls:
        if not (args.corpus / "spec_14" / "schema.json").exists():
            print(f"(no RFC 14 schema under {args.corpus}: yaml-language-server skipped)")
        elif (yv := ensure_yamlls()) is not None:
            schema = write_schema_copy(args.corpus)
            settings = {
                "yaml": {
                    "validate": True,
                    "schemas": {schema.as_uri(): ["*.yaml"]},
                    "schemaStore": {"enable": False},
                }
            }
            servers.append(("yaml-language-server", ["node", str(YAMLLS_BIN), "--stdio"], settings))
            header += [f"yaml-language-server {yv}", f"node {version_of(['node', '--version'])}"]
    header.append(f"{os.cpu_count()} CPUs")

    table, checks = {}, {}
    t_all = time.perf_counter()
    for name, cmd, settings in servers:
        results, ok = asyncio.run(
            measure(name, cmd, settings, inputs, args.timeout, args.timeout * 6)
        )
        table[name], checks[name] = results, ok

    print(", ".join(header))
    print(
        f"edits ({'whole texts' if args.full_text else 'changed ranges'}): {args.rfc_changes} "
        f"per RFC file, {args.changes} for each generated file; "
        f"total {time.perf_counter() - t_all:.0f} s"
    )
    for name, (ok, text) in checks.items():
        print(f"broken-file check, {name}: {'ok' if ok else 'FAILED'}: {text}")
        if not ok:
            print(f"  !! {name} did not diagnose a broken file: its latencies mean nothing")
    print()
    names = list(table)
    cols = "".join(f" | {n[:20]:>20} {'median':>8} {'p90':>8}" for n in names)
    print(f"{'input':<22} {'event':<6}{cols}" + (" | ratio" if len(names) == 2 else ""))
    print(
        f"{'':<22} {'':<6}"
        + "".join(f" | {'samples/timeouts':>20} {'ms':>8} {'ms':>8}" for _ in names)
        + (" | med/med" if len(names) == 2 else "")
    )
    medians = {}
    for label, *_ in inputs:
        for event in ("open", "edit"):
            line = f"{label:<22} {event:<6}"
            meds = []
            for n in names:
                res = (table[n] or {}).get(label)
                if res is None:
                    line += f" | {'not run':>20} {'-':>8} {'-':>8}"
                    meds.append(None)
                    continue
                med, p90, k, miss = stats(res.opens if event == "open" else res.edits)
                shown = (ms(med), ms(p90)) if k or miss else ("-", "-")
                line += f" | {f'{k}/{miss}':>20} {shown[0]:>8} {shown[1]:>8}"
                meds.append(med)
                medians[(n, label, event)] = med
            if len(names) == 2:
                a, b = meds
                line += f" | {b / a:6.1f}x" if a and b else " |      -"
            print(line)
    print()
    for n in names:
        for label, res in (table[n] or {}).items():
            notes = [
                f"{len(res.flagged_open)}/{len(res.opens)} files with diagnostics as opened"
                + (f" [{', '.join(res.flagged_open)}]" if res.flagged_open else "")
            ]
            if res.unchanged:
                notes.append(f"{res.unchanged} edits published unchanged diagnostics")
            if res.skipped:
                notes.append(f"{res.skipped} edits skipped after a timeout")
            print(f"{n}, {label}: " + "; ".join(notes))

    # targets (reported, not asserted)
    print()
    rfc_label = inputs[0][0] if rfc else None
    if rfc_label and len(names) == 2:
        a = medians.get(("jobspec-lsp", rfc_label, "edit"))
        b = medians.get(("yaml-language-server", rfc_label, "edit"))
        if a and b:
            print(
                f"target: RFC files, median edit latency >= 20x lower than yaml-language-server: "
                f"{'met' if b / a >= 20 else 'MISSED'} ({b / a:.1f}x)"
            )
    # issue 26: keystroke -> diagnostics, p50 / p99 (p99 of 20 edits is their slowest)
    goals = {300_000: (30, 100), 1_000_000: (60, 200), 5_000_000: (300, 1000)}
    per_char = []
    for label, files, *_ in inputs[1 if rfc else 0 :]:
        size = len(files[0][1])
        res = (table.get("jobspec-lsp") or {}).get(label)
        if res is None:
            continue
        edits = sorted(v for v in res.edits if v is not None)
        if not edits:
            continue
        med, worst = statistics.median(edits), edits[-1]
        per_char.append((size, med))
        goal = next((g for n, g in goals.items() if abs(size - n) <= n // 10), None)
        verdict = (
            f"target {goal[0]} / {goal[1]} ms: "
            + ("met" if med * 1000 <= goal[0] and worst * 1000 <= goal[1] else "MISSED")
            if goal
            else "no target at this size"
        )
        print(
            f"jobspec-lsp, {label}: edit min {ms(edits[0])}, median {ms(med)}, "
            f"slowest {ms(worst)} ms; {verdict}"
        )
    if len(per_char) > 1:
        print(
            "growth: median edit per 1,000 characters "
            + ", ".join(f"{n / 1000:.0f} KB {m * 1e6 / n:.3f} ms" for n, m in per_char)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
