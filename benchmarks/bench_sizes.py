"""Issue 26 in one run: every cost that could grow with size, at three sizes, each beside
the tool people would use instead, measured in the same run.

    python benchmarks/bench_sizes.py [--sizes 300000,1000000,3000000] [--edits N]
                                     [--repeat N] [--no-yamlls] [--flux PATH] [--json]

1. Language server (stdio, ``bench_lsp.Client``), generated jobspecs of each size
   (``generate.py``): keystroke -> diagnostics for ranged, length-changing edits (a count
   set to ``00`` and back, as bench_lsp.py does), and completion on a ``type:`` value in
   the middle of the document; jobspec-lsp beside yaml-language-server (the RFC 14 schema
   copy bench_lsp.py writes). With ``--json``, also completion in jobspecs of the same
   sizes written as JSON (``generate_json``), on a ``"type"`` value in the middle
   (jobspec-lsp alone: yaml-language-server offers no jobspec completion in JSON).
2. Formatting, whole processes, stdin to stdout: ``jobspec fmt -`` beside prettier (the
   one yaml-language-server ships), interleaved.
3. One script checked by a fresh process: ``jobspec check`` beside ``flux batch
   --dry-run`` (Flux's own front end, when ``--flux`` or ``flux`` on PATH is found) and
   ``python -c pass``, on scripts of 3, 200 and 2,000 lines.

Prints minimum and median of every series and the load average before and after;
asserts nothing; exits 0. Compare the columns of one run, not runs with each other.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_lsp  # noqa: E402
from generate import generate, generate_json  # noqa: E402

import jobspec_lsp  # noqa: E402


def summary(values: list[float | None]) -> str:
    got = sorted(v for v in values if v is not None)
    if not got:
        return "timeout"
    missed = len(values) - len(got)
    text = f"{got[0] * 1000:8.1f} {statistics.median(got) * 1000:8.1f}"
    return text + (f" ({missed} timeouts)" if missed else "")


def _middle_type(text: str) -> tuple[int, int]:
    """The LSP position just after the ``type: `` nearest the document's middle."""
    at = text.find("- type: ", len(text) // 2)
    at = (at if at >= 0 else text.find("- type: ")) + len("- type: ")
    line = text.count("\n", 0, at)
    return line, at - (text.rfind("\n", 0, at) + 1)


async def _completions(client, uri, line, col, times, timeout) -> list[float | None]:
    """The latency of ``times`` completion requests at (line, col) (None: no answer)."""
    out: list[float | None] = []
    for _ in range(times):
        t0 = time.perf_counter()
        try:
            await client.request(
                "textDocument/completion",
                {"textDocument": {"uri": uri}, "position": {"line": line, "character": col}},
                timeout=timeout,
            )
            out.append(time.perf_counter() - t0)
        except (asyncio.TimeoutError, ConnectionError):
            out.append(None)
    return out


async def _server(name, cmd, settings, texts, edits, timeout):
    """{size: (open, [edit latencies], [completion latencies])} for one server."""
    client = bench_lsp.Client(name, cmd, settings)
    await client.start()
    out = {}
    for size, text in texts.items():
        uri = f"{bench_lsp.DOC_DIR}/sizes-{size}.jobspec.yaml"
        start = client.count(uri)
        t0 = await client.send_timed(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
        )
        got = await client.wait_publish(uri, start, 1, timeout)
        opened = got[0] - t0 if got else None
        pair = (text, bench_lsp.flipped(text))
        lat: list[float | None] = []
        for i in range(1, edits + 1):
            start = client.count(uri)
            t0 = await client.send_timed(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": i + 1},
                    "contentChanges": [bench_lsp.ranged(pair[(i - 1) % 2], pair[i % 2])],
                },
            )
            got = await client.wait_publish(uri, start, i + 1, timeout)
            lat.append(got[0] - t0 if got else None)
            if got is None:
                break
        line, col = _middle_type(pair[edits % 2])
        comp = await _completions(client, uri, line, col, max(3, edits // 2), timeout)
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        await client.drain()
        out[size] = (opened, lat, comp)
        print(f"  {name}: {size // 1000} KB done", file=sys.stderr)
    await client.stop()
    return out


def _middle_json_type(text: str) -> tuple[int, int]:
    """The LSP position just inside the ``"type": "`` value nearest the document's middle."""
    at = text.find('"type": "', len(text) // 2)
    at = (at if at >= 0 else text.find('"type": "')) + len('"type": "')
    line = text.count("\n", 0, at)
    return line, at - (text.rfind("\n", 0, at) + 1)


async def _json_completion(sizes, repeat, timeout):
    """{size: [completion latencies]} of jobspec-lsp in generated JSON jobspecs."""
    client = bench_lsp.Client(
        "jobspec-lsp", [str(Path(sys.executable).parent / "jobspec-lsp")], None
    )
    await client.start()
    out = {}
    for size in sizes:
        text = generate_json(size)
        uri = f"{bench_lsp.DOC_DIR}/sizes-{size}.jobspec.json"
        start = client.count(uri)
        await client.send_timed(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}},
        )
        await client.wait_publish(uri, start, 1, timeout)  # read and checked once
        line, col = _middle_json_type(text)
        comp = await _completions(client, uri, line, col, repeat, timeout)
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        await client.drain()
        out[size] = comp
    await client.stop()
    return out


def lsp_section(args, texts) -> None:
    servers = [("jobspec-lsp", [str(Path(sys.executable).parent / "jobspec-lsp")], None)]
    corpus = HERE.parent.parent / "shared" / "corpus" / "rfc" / "data"
    if not args.no_yamlls and (corpus / "spec_14" / "schema.json").exists():
        if bench_lsp.ensure_yamlls() is not None:
            schema = bench_lsp.write_schema_copy(corpus)
            settings = {
                "yaml": {
                    "validate": True,
                    "schemas": {schema.as_uri(): ["*.yaml"]},
                    "schemaStore": {"enable": False},
                }
            }
            yamlls = ["node", str(bench_lsp.YAMLLS_BIN), "--stdio"]
            servers.append(("yaml-language-server", yamlls, settings))
    else:
        print("(yaml-language-server not measured: --no-yamlls, or no RFC 14 schema)")
    results = {}
    for name, cmd, settings in servers:
        results[name] = asyncio.run(_server(name, cmd, settings, texts, args.edits, 120))
    print("\n1. language server: keystroke -> diagnostics, and completion (ms: min, median)")
    print(f"{'size':>8} {'server':<22} {'open':>8} {'edit min / median':>18} {'completion':>18}")
    for size in texts:
        for name in results:
            opened, lat, comp = results[name][size]
            shown = f"{opened * 1000:8.0f}" if opened else " timeout"
            print(f"{size // 1000:>5} KB {name:<22} {shown} {summary(lat):>18} {summary(comp):>18}")
        if len(results) == 2:
            a, b = (results[n][size] for n in results)
            med = [statistics.median([v for v in x if v]) if any(x) else None for x in (a[1], b[1])]
            if all(med):
                print(
                    f"{'':>8} edit median ratio yaml-language-server / jobspec-lsp: "
                    f"{med[1] / med[0]:.1f}x"
                )
    if args.json:
        got = asyncio.run(_json_completion(list(texts), max(10, args.edits), 120))
        print("\n   completion in the same jobspecs as JSON, jobspec-lsp (ms: min, median)")
        for size, comp in got.items():
            print(f"{size // 1000:>5} KB {'jobspec-lsp (JSON)':<22} {summary(comp):>18}")


def fmt_section(args, texts) -> None:
    prettier = HERE / "yamlls" / "node_modules" / "prettier" / "bin" / "prettier.cjs"
    exe = str(Path(sys.executable).parent / "jobspec")
    print("\n2. formatting, stdin to stdout, whole processes (ms: min, median)")
    if not prettier.exists() or not shutil.which("node"):
        print(f"(prettier not installed: npm ci in {HERE / 'yamlls'})")
        prettier = None
    for size, text in texts.items():
        data = text.encode()
        ours: list[float | None] = []
        theirs: list[float | None] = []
        for _ in range(args.repeat):
            cmds = [([exe, "fmt", "-"], ours)]
            if prettier:
                cmds.append((["node", str(prettier), "--stdin-filepath", "big.yaml"], theirs))
            for cmd, times in cmds:
                t0 = time.perf_counter()
                proc = subprocess.run(cmd, input=data, capture_output=True)
                times.append(time.perf_counter() - t0 if proc.returncode == 0 else None)
        line = f"{size // 1000:>5} KB jobspec fmt {summary(ours)}"
        if prettier:
            line += f" | prettier {summary(theirs)}"
            a = [v for v in ours if v]
            b = [v for v in theirs if v]
            if a and b:
                line += f" | {statistics.median(a) / statistics.median(b):.2f}x prettier's time"
        print(line)


def _script(lines: int) -> str:
    head = "#!/bin/sh\n#flux: -N 2 -n 8 -t 1h\n#flux: --queue=batch\n"
    body = "".join(f"flux run -n 4 ./step{i % 17} --input data{i}.txt\n" for i in range(lines - 3))
    return head + body


def _checkout_check(tree: str, path: Path) -> list[str]:
    """`jobspec check -q PATH` run from the package of another checkout ``tree`` (its
    bytecode compiled first, as for this one): the start-up before a change, in one run."""
    compileall.compile_dir(str(Path(tree) / "jobspec_lsp"), quiet=1)
    probe = (
        f"import sys; sys.path.insert(0, {str(tree)!r}); "
        f"sys.argv = ['jobspec', 'check', '-q', {str(path)!r}]; "
        "from jobspec_lsp.cli import run; sys.exit(run())"
    )
    return [sys.executable, "-c", probe]


def startup_section(args) -> None:
    exe = str(Path(sys.executable).parent / "jobspec")
    flux = args.flux or shutil.which("flux")
    print("\n3. one script checked by a fresh process (ms: min, median)")
    # an installed wheel has its bytecode (pip compiles it), as Flux's installed Python
    # has; an editable checkout run with PYTHONDONTWRITEBYTECODE would compile every
    # module of ours on every start instead
    package = Path(jobspec_lsp.__file__).parent
    compileall.compile_dir(str(package), quiet=1)
    print(f"   (bytecode of {package} compiled first, as an installed wheel has it)")
    with tempfile.TemporaryDirectory() as tmp:
        for lines in (3, 200, 2000):
            path = Path(tmp) / f"job{lines}.sh"
            path.write_text(_script(max(lines, 3)))
            series = {"python -c pass": [sys.executable, "-c", "pass"]}
            series["jobspec check"] = [exe, "check", "-q", str(path)]
            for tree in args.before or ():  # another checkout of the package, same way
                series[f"before ({Path(tree).name})"] = _checkout_check(tree, path)
            if flux:
                series["flux batch --dry-run"] = [flux, "batch", "--dry-run", str(path)]
            times: dict[str, list[float | None]] = {k: [] for k in series}
            for _ in range(args.repeat):
                for name, cmd in series.items():
                    t0 = time.perf_counter()
                    subprocess.run(cmd, capture_output=True)
                    times[name].append(time.perf_counter() - t0)
            shown = " | ".join(f"{k} {summary(v)}" for k, v in times.items())
            print(f"{lines:>5} lines: {shown}")
            if flux:
                a = statistics.median([v for v in times["jobspec check"] if v])
                b = statistics.median([v for v in times["flux batch --dry-run"] if v])
                print(f"{'':>12} jobspec check / flux batch --dry-run: {a / b:.2f}x")
    if not flux:
        print("(flux not found: --flux PATH, or ../shared/flux/setup.sh)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="300000,1000000,3000000")
    ap.add_argument("--edits", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-yamlls", action="store_true")
    ap.add_argument("--flux", help="the flux command (default: flux on PATH)")
    ap.add_argument(
        "--before",
        action="append",
        help="another checkout whose `jobspec check` start-up is timed beside (repeatable)",
    )
    ap.add_argument("--skip", default="", help="sections to leave out: lsp,fmt,startup")
    ap.add_argument("--json", action="store_true", help="also JSON completion (jobspec-lsp)")
    args = ap.parse_args(argv)
    skip = set(args.skip.split(","))
    texts = {int(s): generate(int(s)) for s in args.sizes.split(",") if s.strip()}
    before = os.getloadavg()
    t_all = time.perf_counter()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M')}, python {sys.version.split()[0]}, "
        f"{os.cpu_count()} CPUs, load average {before[0]:.2f} before"
    )
    if "lsp" not in skip:
        lsp_section(args, texts)
    if "fmt" not in skip:
        fmt_section(args, texts)
    if "startup" not in skip:
        startup_section(args)
    after = os.getloadavg()
    print(f"\nload average {after[0]:.2f} after; {time.perf_counter() - t_all:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
