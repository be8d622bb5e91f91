"""`jobspec fmt --check` as a pre-commit hook feels it: whole processes.

    python benchmarks/bench_fmt.py [--corpus DIR] [--repeat N]

Times, best of N, (1) `python -c pass` (bare interpreter start-up), (2)
`python -c "import jobspec_lsp.cli"` (our import cost), (3) `jobspec fmt
--check` over the whole RFC corpus in one process, and (4) the in-process
format time of a generated ~300 KB jobspec next to libyaml's compose of it.
Prints, asserts nothing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def best(cmd, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True)
        times.append(time.perf_counter() - t0)
    return min(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "rfc")
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args(argv)
    files = sorted(str(p) for p in args.corpus.rglob("*.yaml"))
    exe = str(Path(sys.executable).parent / "jobspec")
    base = best([sys.executable, "-c", "pass"], args.repeat)
    imp = best([sys.executable, "-c", "import jobspec_lsp.cli"], args.repeat)
    fmt = best([exe, "fmt", "--check", "-q", *files], args.repeat)
    rows = [("python -c pass", base), ('python -c "import jobspec_lsp.cli"', imp),
            (f"jobspec fmt --check ({len(files)} RFC files)", fmt)]
    for name, t in rows:
        print(f"{name:<44} {t * 1000:8.1f} ms  {t / base:.2f}x")

    import yaml

    from generate import generate
    from jobspec_lsp.format import format_text
    big = generate(300_000)
    t_fmt = min(_timed(lambda: format_text(big)) for _ in range(3))
    t_comp = min(_timed(lambda: yaml.compose(big, Loader=yaml.CSafeLoader)) for _ in range(3))
    print(f"{'format_text(~300 KB) in process':<44} {t_fmt * 1000:8.1f} ms  "
          f"{t_fmt / t_comp:.1f}x libyaml compose ({t_comp * 1000:.1f} ms)")


def _timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
