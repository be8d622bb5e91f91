"""Checking a batch script's directives, as the language server does on every edit.

    python benchmarks/bench_batch.py

A 2,000-line script with 50 directives (every option kind, a multi-line literal)
timed in process, best of N, beside reading the same text with Python's `shlex`
(the standard library's shell splitter) as a reference measured in the same run.
Prints, asserts nothing."""

from __future__ import annotations

import shlex
import time

from jobspec_lsp import batch, directives

DIRECTIVES = [
    "-N2 -n8 -c2",
    "--job-name=sim",
    "-t 1h",
    "-q batch",
    "--setattr=user.tag='{\"a\": 1}'",
    "--requires='ssd and not host:n1'",
    "--dependency=afterok:123",
    "-o mpi=spectrum",
    "--output=job-{{id}}.out  # the output",
    "--env=OMP_NUM_THREADS=2",
]


def script() -> str:
    lines = ["#!/bin/bash"]
    for i in range(48):
        lines.append("#flux: " + DIRECTIVES[i % len(DIRECTIVES)])
    lines += ['#flux: --setattr=user.conf="""', "#flux: [x]", '#flux: """']
    body = [f"echo step {i}; flux run -n8 ./sim --step {i} > out.{i}" for i in range(1946)]
    return "\n".join(lines + body) + "\n"


def best(fn, n=30) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    text = script()
    n_lines = text.count("\n")
    n_dir = len(directives.read(text).directives)
    batch.check_script(text)  # build the lark parsers once, as a running server has

    def cold():  # a script never seen: nothing of it cached
        directives._split.cache_clear()
        batch.value_problem.cache_clear()
        batch.check_script(text)

    t_cold = best(cold)
    t_check = best(lambda: batch.check_script(text))  # again, as after an edit
    block = [ln[len("#flux:") :] for ln in text.splitlines() if ln.startswith("#flux:")][:48]
    t_shlex = best(lambda: [shlex.split(b, comments=True) for b in block])
    print(f"script: {n_lines} lines, {n_dir} directives")
    print(f"check_script, first time (read, split, check every option): {t_cold * 1000:.2f} ms")
    print(
        f"check_script again, as on each edit (directives and values cached): "
        f"{t_check * 1000:.2f} ms"
    )
    print(
        f"shlex.split of the 48 one-line directives (reference): {t_shlex * 1000:.2f} ms "
        f"({t_check / t_shlex:.1f}x)"
    )


if __name__ == "__main__":
    main()
