"""`jobspec fmt --check` timed the way a pre-commit hook runs it: whole processes.

    python benchmarks/bench_fmt.py [--shared DIR] [--repeat N]

Inputs: the RFC 14 and RFC 25 examples of the shared corpus (one process for
all of them), and the ~300 KB jobspec benchmarks/generate.py writes.  Every
time is the best of N and is shown beside references measured in the same
run: `python -c pass` (bare interpreter start-up) and `jobspec check` on the
same files (start-up plus the libyaml-based analysis).  Then the tool people
would use instead: prettier (3.x, the one yaml-language-server ships; `npm ci`
in benchmarks/yamlls installs it) formatting the unformatted 300 KB file from
stdin to stdout, interleaved with `jobspec fmt -` doing the same.  The
in-process cost of `format_text` on the big file is shown beside libyaml's
compose of it.  Prints, asserts nothing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def best(cmd, repeat) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True)
        times.append(time.perf_counter() - t0)
    return min(times)


def timed(fn, repeat) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--shared",
        type=Path,
        default=HERE.parent.parent / "shared",
        help="the shared/ folder holding corpus/rfc/data",
    )
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args(argv)
    data = args.shared / "corpus" / "rfc" / "data"
    rfc = sorted(str(p) for spec in ("spec_14", "spec_25") for p in (data / spec).glob("*.yaml"))
    if not rfc:
        sys.exit(f"no RFC corpus under {data}; pass --shared")
    exe = str(Path(sys.executable).parent / "jobspec")

    import yaml
    from generate import generate

    from jobspec_lsp.fmt.format import format_text

    big_text = generate(300_000)
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.jobspec.yaml"
        big.write_text(format_text(big_text))  # formatted: --check reads, formats, compares
        base = best([sys.executable, "-c", "pass"], args.repeat)
        rows = [("python -c pass", base, None)]
        for label, files, repeat in (
            (f"{len(rfc)} RFC 14/25 files", rfc, args.repeat),
            (f"generated {len(big_text) // 1000} KB", [str(big)], max(2, args.repeat // 3)),
        ):
            check = best([exe, "check", "-q", *files], repeat)
            fmt = best([exe, "fmt", "--check", "-q", *files], repeat)
            rows.append((f"jobspec check, {label}", check, None))
            rows.append((f"jobspec fmt --check, {label}", fmt, check))
    print(f"{'command':<48} {'time':>10}  {'vs start-up':>11}  {'vs check':>8}")
    for name, t, ref in rows:
        vs = f"{t / ref:.1f}x" if ref else ""
        print(f"{name:<48} {t * 1000:7.1f} ms  {t / base:10.1f}x  {vs:>8}")

    prettier = HERE / "yamlls" / "node_modules" / "prettier" / "bin" / "prettier.cjs"
    if prettier.exists():
        ours_t, theirs_t = [], []
        data = big_text.encode()
        for _ in range(max(3, args.repeat // 2)):  # interleaved, whole processes
            for cmd, times in (
                ([exe, "fmt", "-"], ours_t),
                (["node", str(prettier), "--stdin-filepath", "big.yaml"], theirs_t),
            ):
                t0 = time.perf_counter()
                proc = subprocess.run(cmd, input=data, capture_output=True)
                times.append(time.perf_counter() - t0)
                if proc.returncode != 0:
                    sys.exit(f"{cmd[0]} failed: {proc.stderr.decode()[:300]}")
        ours, theirs = min(ours_t), min(theirs_t)
        print(
            f"\nformatting generated {len(big_text) // 1000} KB, stdin to stdout, whole "
            f"processes: jobspec fmt {ours * 1000:.0f} ms, prettier {theirs * 1000:.0f} ms "
            f"({ours / theirs:.2f}x prettier's time)"
        )
    else:
        print(f"\n(prettier not installed: npm ci in {HERE / 'yamlls'} to compare with it)")

    t_fmt = timed(lambda: format_text(big_text), 3)
    t_comp = timed(lambda: yaml.compose(big_text, Loader=yaml.CSafeLoader), 3)
    print(
        f"\nin process, generated {len(big_text) // 1000} KB: format_text {t_fmt * 1000:.0f} ms, "
        f"libyaml compose {t_comp * 1000:.0f} ms ({t_fmt / t_comp:.0f}x)"
    )


if __name__ == "__main__":
    main()
