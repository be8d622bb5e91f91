"""The playground (scripts/build-web) in a real browser: how soon the first findings
come, and how long each keystroke waits for its findings.

    python benchmarks/bench_web.py [--runs N] [--keys N]

Builds the site (twice: the second build is the cached one), serves it on 127.0.0.1 and
drives Debian's Chromium with Playwright (scripts/setup-web installs both):

- cold start: a new browser profile (nothing cached) opens the page and a 3 KB jobspec
  is pasted at once; the time from opening the page to its findings drawn (Pyodide's
  start, the package's imports and the first check). Then the same in the same profile
  (the files from the browser's cache);
- per keystroke: one character typed (and the next one removed) in the middle of the
  document, from the edit to its findings drawn, on a 3 KB jobspec, a 200-line Flux
  batch script and a 200-line Slurm script (converted at every keystroke too); the
  Python part of it (the worker's analysis) beside it.

Prints medians, minima and maxima; asserts nothing. Needs npm, Chromium and Playwright.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from generate import generate  # noqa: E402

KEYSTROKES = r"""
async ([at, n]) => {
  const p = window.playground;
  const view = p.view;
  const settled = () => new Promise((resolve) => {
    const poll = () => (p.last && p.last.version === p.version ? resolve() : setTimeout(poll, 0));
    poll();
  });
  await settled();
  const waits = [], python = [], draws = [], worker = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const change = i % 2 === 0 ? { from: at, insert: "7" } : { from: at, to: at + 1 };
    view.dispatch({ changes: change, userEvent: i % 2 === 0 ? "input.type" : "delete.backward" });
    await settled();
    waits.push(performance.now() - t0);
    python.push(p.last.result.ms);
    worker.push(p.last.result.workerMs);
    draws.push(p.last.drawMs);
  }
  return { waits, python, draws, worker };
}
"""


def flux_script(lines: int = 200) -> str:
    head = [
        "#!/bin/bash",
        "#flux: -N4 -n32 -c2",
        "#flux: --job-name=sim",
        "#flux: -t 2h",
        "#flux: -q batch",
        "#flux: --output=sim-{{id}}.out",
        "#flux: --setattr=system.exclusive=true",
        "",
    ]
    body = [f"flux run -N1 -n8 ./sim --step {i} > out.{i}" for i in range(lines - len(head))]
    return "\n".join(head + body) + "\n"


def slurm_script(lines: int = 200) -> str:
    head = [
        "#!/bin/bash",
        "#SBATCH --nodes=4",
        "#SBATCH --ntasks-per-node=8",
        "#SBATCH --cpus-per-task=2",
        "#SBATCH --job-name=sim",
        "#SBATCH --time=02:00:00",
        "#SBATCH --partition=pbatch",
        "#SBATCH --output=sim-%j.out",
        "",
    ]
    body = [
        f'echo "step {i} of $SLURM_JOB_ID"; srun -N1 -n8 ./sim --step {i} > out.{i}'
        for i in range(lines - len(head))
    ]
    return "\n".join(head + body) + "\n"


def build(out: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run(
        [str(REPO / "scripts" / "build-web"), str(out), "-q"],
        check=True,
        env={**os.environ, "PYTHON": sys.executable},
    )
    return time.perf_counter() - t0


def serve(root: Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(root))
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_port}/"


def stats(values: list[float]) -> str:
    return (
        f"median {statistics.median(values):7.1f} ms   min {min(values):7.1f}   "
        f"max {max(values):7.1f}   (n={len(values)})"
    )


def first_findings(page, url: str, text: str) -> tuple[float, float]:
    """(ms from opening the page to the pasted text's findings, ms to Python ready)."""
    page.goto(url)
    page.get_by_role("textbox", name="Script or jobspec").fill(text)
    page.wait_for_function(
        "performance.getEntriesByName('jobspec-first-findings').length > 0", timeout=120_000
    )
    got = page.evaluate(
        "[performance.getEntriesByName('jobspec-first-findings')[0].startTime,"
        " window.playground.started.readyMs]"
    )
    return got[0], got[1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="cold starts to time")
    ap.add_argument("--keys", type=int, default=60, help="keystrokes per document")
    args = ap.parse_args(argv)
    chromium = shutil.which("chromium")
    if chromium is None:
        print("no chromium (scripts/setup-web installs it)")
        return 1
    from playwright.sync_api import sync_playwright

    jobspec = generate(3000)
    documents = {
        f"jobspec, {len(jobspec):,} bytes": (jobspec, jobspec.index("count: 4") + 8),
        "Flux script, 200 lines": (flux_script(), flux_script().index("-n32") + 4),
        "Slurm script, 200 lines": (slurm_script(), slurm_script().index("--nodes=4") + 9),
    }
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        first = build(site)
        second = build(site)
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        print(
            f"build: {first:.1f} s, again {second:.1f} s (cached tools); site {size / 1e6:.1f} MB"
        )
        for p in sorted(site.rglob("*")):
            if p.is_file() and p.stat().st_size > 100_000:
                print(f"  {p.relative_to(site)}: {p.stat().st_size / 1e6:.2f} MB")
        httpd, url = serve(site)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
            )
            cold, cold_ready, warm, warm_ready = [], [], [], []
            for _ in range(args.runs):
                ctx = browser.new_context()
                page = ctx.new_page()
                t, r = first_findings(page, url, jobspec)
                cold.append(t)
                cold_ready.append(r)
                page.close()
                page = ctx.new_page()  # the same profile: the files come from its cache
                t, r = first_findings(page, url, jobspec)
                warm.append(t)
                warm_ready.append(r)
                ctx.close()
            print("cold start to first findings (3 KB jobspec pasted at once):")
            print(f"  nothing cached   {stats(cold)}")
            print(f"    Python ready   {stats(cold_ready)}")
            print(f"  files cached     {stats(warm)}")
            print(f"    Python ready   {stats(warm_ready)}")
            ctx = browser.new_context()
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_function("window.playground !== undefined", timeout=120_000)
            print(f"per keystroke ({args.keys} keys each: the edit to its findings drawn):")
            box = page.get_by_role("textbox", name="Script or jobspec")
            for name, (text, at) in documents.items():
                box.fill(text)
                page.evaluate(KEYSTROKES, [at, 4])  # warm up: the kind's modules imported
                got = page.evaluate(KEYSTROKES, [at, args.keys])
                print(f"  {name:26} {stats(got['waits'])}")
                print(f"  {'  of it, the worker':26} {stats(got['worker'])}")
                print(f"  {'  of that, Python':26} {stats(got['python'])}")
                for part in ("lint", "findings", "conversion"):
                    got_part = [d[part] for d in got["draws"]]
                    print(f"  {'  drawing ' + part:26} {stats(got_part)}")
            ctx.close()
            browser.close()
        httpd.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
