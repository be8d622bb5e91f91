"""didOpen/didChange -> publishDiagnostics latency over stdio, jobspec-lsp beside
yaml-language-server (npm) configured with a working copy of the RFC 14 schema.

    python benchmarks/bench_lsp.py [--corpus DIR] [--changes N] [--no-yamlls]

For each RFC example (spec_14 and spec_25) and a generated ~300 KB jobspec:
open the file, wait for its diagnostics, then make N full-text edits (each flips
a count, so diagnostics change) and time each edit until the server publishes
for it. Reports median and p90 per server and input, and the ratio of the
medians. yaml-language-server debounces validation (about 200 ms): that is part
of what its users feel, so nothing works around it. Prints; asserts nothing.

yaml-language-server is installed on first use into benchmarks/yamlls/ with
`npm install`. The RFC 14 schema does not load as published (its dependencies
`$ref` is `file:data/spec_26/schema.json`); the working copy written to
benchmarks/yamlls/rfc14-schema.json inlines the RFC 26 schema instead. Its other
known faults (e.g. `oneOf` rejecting count strings that are both idset and
range) are left as they are: it is the schema users of a generic YAML server get.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import generate  # noqa: E402

YAMLLS = HERE / "yamlls"


class Client:
    """A minimal LSP client over a subprocess's stdio."""

    def __init__(self, proc):
        self.proc = proc
        self.next_id = 0
        self.pending: dict[int, asyncio.Future] = {}
        self.published: dict[str, asyncio.Event] = {}
        self.last_diagnostics: dict[str, list] = {}
        self.settings: dict = {}
        self.reader = asyncio.create_task(self._read())

    async def _read(self):
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = await out.readline()
                if not line:
                    return
                line = line.decode().strip()
                if not line:
                    break
                k, _, v = line.partition(":")
                headers[k.lower()] = v.strip()
            body = json.loads(await out.readexactly(int(headers["content-length"])))
            if "method" in body and "id" in body:      # a request from the server
                result = None
                if body["method"] == "workspace/configuration":
                    result = [self.settings.get(i.get("section", ""), None)
                              for i in body["params"]["items"]]
                self._send({"jsonrpc": "2.0", "id": body["id"], "result": result})
            elif "method" in body:
                if body["method"] == "textDocument/publishDiagnostics":
                    uri = body["params"]["uri"]
                    self.last_diagnostics[uri] = body["params"]["diagnostics"]
                    ev = self.published.get(uri)
                    if ev is not None:
                        ev.set()
            elif body.get("id") in self.pending:
                self.pending.pop(body["id"]).set_result(body)

    def _send(self, msg):
        data = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)

    async def request(self, method, params):
        self.next_id += 1
        fut = asyncio.get_event_loop().create_future()
        self.pending[self.next_id] = fut
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return await asyncio.wait_for(fut, 60)

    def notify(self, method, params):
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def start(self, settings):
        self.settings = settings
        await self.request("initialize", {"processId": os.getpid(), "rootUri": None,
                                          "capabilities": {"workspace": {"configuration": True},
                                                           "textDocument": {"publishDiagnostics": {}}}})
        self.notify("initialized", {})
        if settings:
            self.notify("workspace/didChangeConfiguration", {"settings": settings})

    async def stop(self):
        try:
            await self.request("shutdown", None)
            self.notify("exit", None)
            await asyncio.wait_for(self.proc.wait(), 10)
        except Exception:
            self.proc.kill()

    async def timed(self, uri, send, timeout):
        ev = self.published[uri] = asyncio.Event()
        t0 = time.perf_counter()
        send()
        try:
            await asyncio.wait_for(ev.wait(), timeout)
        except asyncio.TimeoutError:
            return None
        return time.perf_counter() - t0


async def measure(cmd, settings, files, changes, timeout):
    proc = await asyncio.create_subprocess_exec(*cmd, stdin=subprocess.PIPE,
                                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                                limit=1 << 26)
    client = Client(proc)
    await client.start(settings)
    await asyncio.sleep(0.5)  # let it settle (schema loading, configuration)
    results = {}
    for name, text in files:
        uri = f"file:///tmp/bench/{name}"
        opens = await client.timed(uri, lambda: client.notify("textDocument/didOpen", {
            "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}),
            timeout)
        edits = []
        for v in range(2, changes + 2):
            new = text.replace("count: 1\n", f"count: {v}\n", 1) if v % 2 == 0 else text
            t = await client.timed(uri, lambda new=new, v=v: client.notify(
                "textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                                           "contentChanges": [{"text": new}]}), timeout)
            edits.append(t)
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        results[name] = (opens, edits)
    await client.stop()
    return results


def rfc14_schema_copy(corpus: Path) -> Path:
    schema = json.loads((corpus / "spec_14" / "schema.json").read_text())
    deps = json.loads((corpus / "spec_26" / "schema.json").read_text())
    deps.pop("$schema", None)
    deps.pop("$id", None)
    schema.setdefault("definitions", {})["spec_26_dependencies"] = deps
    text = json.dumps(schema).replace('"file:data/spec_26/schema.json"',
                                      '"#/definitions/spec_26_dependencies"')
    out = YAMLLS / "rfc14-schema.json"
    out.write_text(text)
    return out


def yamlls_command() -> list[str]:
    exe = YAMLLS / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
    if not exe.exists():
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"],
                       cwd=YAMLLS, check=True)
    return ["node", str(exe), "--stdio"]


def stats(values):
    vals = sorted(v for v in values if v is not None)
    if not vals:
        return None, None
    p90 = vals[min(len(vals) - 1, int(round(0.9 * (len(vals) - 1))))]
    return statistics.median(vals), p90


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "rfc" / "data")
    ap.add_argument("--changes", type=int, default=20)
    ap.add_argument("--no-yamlls", action="store_true")
    ap.add_argument("--jobspec-lsp", default=str(Path(sys.executable).parent / "jobspec-lsp"))
    args = ap.parse_args(argv)

    rfc = [(f"{p.parent.name}-{p.name}".replace(".yaml", ".jobspec.yaml"), p.read_text())
           for spec in ("spec_14", "spec_25") for p in sorted((args.corpus / spec).glob("*.yaml"))]
    big = [("generated-300k.jobspec.yaml", generate(300_000))]
    servers = [("jobspec-lsp", [args.jobspec_lsp], {})]
    if not args.no_yamlls:
        schema = rfc14_schema_copy(args.corpus)
        settings = {"yaml": {"validate": True, "schemas": {schema.as_uri(): ["*.yaml"]},
                             "format": {"enable": False}}}
        servers.append(("yaml-language-server", yamlls_command(), settings))

    table = {}
    for name, cmd, settings in servers:
        small = asyncio.run(measure(cmd, settings, rfc, args.changes, 10))
        large = asyncio.run(measure(cmd, settings, big, max(3, args.changes // 4), 60))
        table[name] = {
            "RFC examples": ([o for o, _ in small.values()], [t for _, e in small.values() for t in e]),
            "~300 KB": ([o for o, _ in large.values()], [t for _, e in large.values() for t in e]),
        }
    print(f"{'server':<22} {'input':<14} {'open median':>12} {'edit median':>12} {'edit p90':>10} "
          f"{'timeouts':>8}")
    for name, rows in table.items():
        for inp, (opens, edits) in rows.items():
            om, _ = stats(opens)
            em, ep = stats(edits)
            miss = sum(v is None for v in opens + edits)
            fmt = lambda v: f"{v * 1000:9.1f} ms" if v is not None else "    timeout"
            print(f"{name:<22} {inp:<14} {fmt(om):>12} {fmt(em):>12} {fmt(ep):>10} {miss:>8}")
    if "yaml-language-server" in table:
        for inp in ("RFC examples", "~300 KB"):
            ours = stats(table["jobspec-lsp"][inp][1])[0]
            theirs = stats(table["yaml-language-server"][inp][1])[0]
            if ours and theirs:
                print(f"edit latency, {inp}: yaml-language-server / jobspec-lsp = {theirs / ours:.1f}x")


if __name__ == "__main__":
    main()
