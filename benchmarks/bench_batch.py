"""Checking a batch script's directives, as the language server does on every edit.

    python benchmarks/bench_batch.py

A 2,000-line script with 50 directives (every option kind, a multi-line literal)
timed in process, best of N, beside reading the same text with Python's `shlex`
(the standard library's shell splitter) as a reference measured in the same run.
Prints, asserts nothing."""

from __future__ import annotations

import shlex
import time

from jobspec_lsp.fluxcli import values
from jobspec_lsp.job import directives
from jobspec_lsp.migrate import convert as migrate_convert
from jobspec_lsp.script import batch, sbatch

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

    def cold(text=text):  # a script never seen: nothing of it cached
        directives._split.cache_clear()
        values._value_problem.cache_clear()
        sbatch.diagnostics.cache_clear()
        migrate_convert.convert.cache_clear()  # what sbatch.convert_script asks
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
    # half migrated from Slurm: 20 #SBATCH lines left, and srun with $SLURM_JOB_ID on
    # every 50th body line, so the Slurm checks read the whole script
    slurm = text.replace("#!/bin/bash\n", "#!/bin/bash\n" + "#SBATCH -N 2 --mem=4G\n" * 20, 1)
    parts = slurm.split("flux run -n8")
    slurm = parts[0] + "".join(
        ("srun -n8 $SLURM_JOB_ID" if i % 50 == 0 else "flux run -n8") + p
        for i, p in enumerate(parts[1:])
    )
    sbatch.diagnostics(slurm)
    t_slurm = best(lambda: cold(slurm))
    n_slurm = sum(1 for d in batch.check_script(slurm) if d.code.startswith("JS59"))
    print(
        f"check_script, first time, with Slurm left in it ({n_slurm} JS59x findings): "
        f"{t_slurm * 1000:.2f} ms"
    )

    def edited():  # a new text: the Slurm findings are computed again, the splits cached
        sbatch.diagnostics.cache_clear()
        migrate_convert.convert.cache_clear()  # what sbatch.convert_script asks
        batch.check_script(slurm)

    print(f"check_script again after an edit, with Slurm left in it: {best(edited) * 1000:.2f} ms")

    # issue 22's size: 2,000 lines, 200 directives, 200 `flux run` lines (one of them
    # edited each time: its findings computed again, the others' cached)
    lines = ["#!/bin/bash"] + ["#flux: " + DIRECTIVES[i % len(DIRECTIVES)] for i in range(200)]
    body = []
    for i in range(1799):
        body.append(f"flux run -N2 -n8 --job-name=s{i} ./sim {i}" if i % 9 == 0 else f"echo {i}")
    big = "\n".join(lines + body) + "\n"
    n_runs = big.count("flux run")
    batch.check_script(big)
    edits = iter(range(10**6))

    def keystroke():  # a new text each time, as an edit makes: a flux run line changed
        k = next(edits)
        batch.check_script(big.replace("--job-name=s9 ", f"--job-name=s9x{k} ", 1))

    t_key = best(keystroke)
    t_ref = best(lambda: [shlex.split(b, comments=True) for b in lines[1:]])
    print(
        f"script: {big.count(chr(10))} lines, 200 directives, {n_runs} flux run lines: "
        f"check_script after an edit of a flux run line {t_key * 1000:.2f} ms "
        f"(shlex.split of its 200 directives: {t_ref * 1000:.2f} ms, {t_key / t_ref:.1f}x)"
    )


if __name__ == "__main__":
    main()
