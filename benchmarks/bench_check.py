"""Analysis speed, reported as ratios against libyaml measured in the same run.

    python benchmarks/bench_check.py [--corpus DIR] [--repeat N]

Prints, for the RFC examples (each ~0.5 KB), a ~3 KB jobspec and a generated
~300 KB jobspec: the best-of-N wall time of the full analysis
(`jobspec_lsp.rules.analysis.check`: parse + every rule), of the parse alone, and
of PyYAML's libyaml composer (`yaml.compose` with CSafeLoader, the reference
Flux itself uses) on the same text, and the ratio analysis / compose.
Machines here are noisy: read the ratios, not the absolute times.  Nothing
is asserted; targets are in docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import generate  # noqa: E402

from jobspec_lsp.jobspec.document import parse  # noqa: E402
from jobspec_lsp.rules.analysis import check  # noqa: E402


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def compose(text):
    return yaml.compose(text, Loader=yaml.CSafeLoader)


def row(name, texts, repeat):
    size = sum(len(t) for t in texts)
    t_check = best(lambda: [check(t) for t in texts], repeat)
    t_parse = best(lambda: [parse(t) for t in texts], repeat)
    t_comp = best(lambda: [compose(t) for t in texts], repeat)
    per = len(texts)
    print(
        f"{name:<26} {size / 1024:>8.1f} KB {t_check / per * 1000:>10.3f} ms "
        f"{t_parse / per * 1000:>10.3f} ms {t_comp / per * 1000:>10.3f} ms "
        f"{t_check / t_comp:>8.2f}x"
    )
    return t_check / per, t_check / t_comp


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_corpus = HERE.parent.parent / "shared" / "corpus" / "rfc" / "data"
    ap.add_argument("--corpus", type=Path, default=default_corpus)
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args(argv)

    rfc = [
        p.read_text()
        for spec in ("spec_14", "spec_25")
        for p in sorted((args.corpus / spec).glob("*.yaml"))
    ]
    small = generate(3_000)
    large = generate(300_000)
    print(
        f"python {sys.version.split()[0]}, PyYAML {yaml.__version__} "
        f"(libyaml {'yes' if yaml.__with_libyaml__ else 'NO'}), best of {args.repeat}"
    )
    print(f"{'input':<26} {'size':>11} {'analysis':>13} {'parse':>13} {'libyaml':>13} {'ratio':>9}")
    if rfc:
        row(f"RFC examples (x{len(rfc)}, per file)", rfc, args.repeat)
    else:
        print(f"(no RFC corpus at {args.corpus})")
    t_small, _ = row("generated ~3 KB", [small], args.repeat * 10)
    _, ratio = row("generated ~300 KB", [large], max(3, args.repeat // 3))
    print()
    print(
        f"targets: ~3 KB analysed in < 5 ms: {'met' if t_small < 0.005 else 'MISSED'} "
        f"({t_small * 1000:.2f} ms); ~300 KB within 3x libyaml compose: "
        f"{'met' if ratio <= 3 else 'MISSED'} ({ratio:.2f}x)"
    )


if __name__ == "__main__":
    main()
