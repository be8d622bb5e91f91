"""Converting real batch scripts: the jobspec-database corpus, per scheduler (issue 35).

    python benchmarks/bench_corpus.py CORPUS [--sample slurm=600,pbs=200,lsf=100] [--seed 35]
    python benchmarks/bench_corpus.py CORPUS --all [--no-flux]

CORPUS is converged-computing/jobspec-database: its git directory (read with git, nothing
checked out) or a folder of scripts. Each job script under ``data/`` (the repositories'
own files beside them, ``jobspec-cfg/``, are not job scripts) is given the scheduler its
directives name (`#SBATCH`, `#PBS`, `#BSUB`); identical scripts are taken once. A sample
is drawn per scheduler with the seed, from the paths in sorted order, so a run is
repeatable. For each script, in process: ``convert`` (a traceback is counted, with its
path); converting the output again (a change is counted); the launch lines converted and
left as they are, each left one with its reason (counted by class); launcher words left in
the output without a reason; ``jobspec check`` of the output (JS587/JS588: a step beyond
its allocation); and, as a subprocess, real ``flux batch --dry-run`` of every script
written (refusals counted by reason). Prints figures and ratios, asserts nothing;
``--json`` writes them, ``--examples`` shows a path for each class.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from jobspec_lsp.migrate import convert
from jobspec_lsp.migrate.body import Text
from jobspec_lsp.script import batch

SCHEDULERS = ("slurm", "pbs", "lsf")
DEFAULT_SAMPLE = "slurm=600,pbs=200,lsf=100"
LIMIT = 20  # seconds: a check that takes longer is counted as stuck, and the run goes on
FLUX = os.environ.get("JOBSPEC_FLUX") or shutil.which("flux") or "/opt/flux-core/bin/flux"


class Corpus:
    """The job scripts of a corpus: a git directory (HEAD's tree) or a folder."""

    def __init__(self, path: Path):
        self.path = path
        self.git = (path / "HEAD").is_file() and (path / "objects").is_dir()
        self.commit = self._git("rev-parse", "HEAD").strip() if self.git else ""

    def _git(self, *args: str, data: bytes | None = None) -> str:
        cmd = ["git", f"--git-dir={self.path}", *args]
        return subprocess.run(cmd, input=data, capture_output=True, check=True).stdout.decode()

    def files(self) -> dict[str, bytes]:
        """path -> bytes of each job script under data/."""
        if not self.git:
            root = self.path / "data" if (self.path / "data").is_dir() else self.path
            return {
                str(p.relative_to(self.path)): p.read_bytes()
                for p in sorted(root.rglob("*"))
                if p.is_file() and "jobspec-cfg" not in p.parts
            }
        listing = self._git("ls-tree", "-r", "-z", "HEAD", "data/").split("\0")
        blobs = {}
        for row in listing:
            meta, _, path = row.partition("\t")
            if meta.split(" ")[1:2] == ["blob"] and "/jobspec-cfg/" not in path:
                blobs[path] = meta.split(" ")[2]
        cmd = ["git", f"--git-dir={self.path}", "cat-file", "--batch"]
        data = "".join(f"{sha}\n" for sha in blobs.values()).encode()
        raw = subprocess.run(cmd, input=data, capture_output=True, check=True).stdout
        out, at = {}, 0
        for path in blobs:
            head_end = raw.index(b"\n", at)
            size = int(raw[at:head_end].split()[2])
            out[path] = raw[head_end + 1 : head_end + 1 + size]
            at = head_end + 1 + size + 1
        return out


def by_scheduler(files: dict[str, bytes]) -> tuple[dict[str, list[tuple[str, str]]], dict]:
    """The scripts of each scheduler, (path, text), identical texts once; and what was left
    out (not UTF-8, several schedulers' directives, duplicates), counted."""
    groups: dict[str, list[tuple[str, str]]] = {s: [] for s in SCHEDULERS}
    seen: set[bytes] = set()
    skipped: collections.Counter = collections.Counter()
    for path in sorted(files):
        data = files[path]
        if not (b"#SBATCH" in data or b"#PBS" in data or b"#BSUB" in data):
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            skipped["not UTF-8"] += 1
            continue
        found = convert.found(text)
        if not found:
            continue
        digest = hashlib.sha1(data).digest()
        if digest in seen:
            skipped["duplicate"] += 1
            continue
        seen.add(digest)
        if len(found) > 1:
            skipped["directives of " + " and ".join(found)] += 1
            continue
        groups[found[0]].append((path, text))
    return groups, dict(skipped)


def sample(groups: dict, sizes: dict[str, int] | None, seed: int) -> dict:
    if sizes is None:
        return groups
    rng = random.Random(seed)
    out = {}
    for s in SCHEDULERS:
        pool = groups[s]
        n = min(sizes.get(s, 0), len(pool))
        out[s] = sorted(rng.sample(pool, n))
    return out


# a launcher's word, a path before it allowed (`/usr/bin/srun`, `$MPI_ROOT/bin/mpirun`)
_LAUNCHER_WORD = re.compile(
    r"(?:^|(?<=[\s;&|(`{]))(?:[\w.${}/-]*/)?(srun|jsrun|lrun|mpirun|mpiexec(?:\.hydra)?|aprun|"
    r"ibrun)(?=[ \t]|$)",
    re.M,
)
# lines that only name a launcher: they print it, look it up, load it
_NAMES_ONLY = re.compile(r"\s*(?:echo|printf|print|which|type|whereis|module|ml|alias|grep|cat)\b")


def left_silently(text: str, conv: convert.Conversion) -> list[str]:
    """Lines of the original holding a launcher's word where a command runs (not in a
    comment, a literal, a double-quoted string or a line that prints it), neither converted
    nor left with a reason."""
    where = Text(text)
    said = {f.start for f in conv.findings if f.kind in ("command", "launch")}
    lines = []
    for m in _LAUNCHER_WORD.finditer(text):
        at = m.start(1)
        if at in said or where.in_comment(at) or where.in_literal(at):
            continue
        ls = text.rfind("\n", 0, at) + 1
        before = text[ls : m.start()]
        if _NAMES_ONLY.match(before) or re.sub(r'\\.|[^"]', "", before).count('"') % 2:
            continue
        le = text.find("\n", at)
        lines.append(text[ls : le if le >= 0 else len(text)].strip())
    return lines


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def launch_class(message: str) -> tuple[str, str]:
    """(class, detail) of the reason a launch line is left: the tool and the reason with its
    quoted values dropped; the detail keeps them (an unknown option's name)."""
    tool, _, why = message.partition(": ")
    why = why.replace("; left as it is (convert it by hand)", "")
    m = re.match(r"\S+ option '([^']*)' is not one the conversion knows", why)
    if m:
        return f"{tool}: unknown option", m.group(1)
    return f"{tool}: {_QUOTED.sub('…', why)}", why


def flux_reason(stderr: str) -> str:
    lines = [ln for ln in stderr.strip().splitlines() if ln.strip()]
    last = lines[-1] if lines else "(no message)"
    last = re.sub(r"^flux-batch: (ERROR: )?", "", last)
    return re.sub(r"\d+", "N", _QUOTED.sub("…", last))[:120]


class Tally:
    """One scheduler's figures."""

    def __init__(self) -> None:
        self.n = 0
        self.c: collections.Counter = collections.Counter()
        self.left: collections.Counter = collections.Counter()
        self.left_detail: collections.Counter = collections.Counter()
        self.refused: collections.Counter = collections.Counter()
        self.examples: dict[str, str] = {}
        self.convert_ms: list[float] = []
        self.check_ms: list[float] = []

    def example(self, key: str, path: str) -> None:
        self.examples.setdefault(key, path)


def one(path: str, text: str, scheduler: str, t: Tally, written: list | None) -> None:
    """Every measure of one script, into ``t``; what it writes into ``written``, for
    real Flux to read after (None: not asked)."""
    t.n += 1
    t0 = time.perf_counter()
    try:
        conv = convert.convert.__wrapped__(text, scheduler)  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 -- counted: the figure the benchmark is for
        t.c["traceback"] += 1
        t.example("traceback", path + "\n" + traceback.format_exc(limit=-3))
        return
    t.convert_ms.append((time.perf_counter() - t0) * 1000)
    if conv.refused:
        t.c["refused by the conversion"] += 1
        t.example("refused: " + conv.refused[:60], path)
        return
    t.c["converted"] += 1
    _launch_lines(path, text, conv, t)
    try:
        again = convert.convert.__wrapped__(conv.text, scheduler).text  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001
        t.c["traceback"] += 1
        t.example("traceback (second conversion)", path + "\n" + traceback.format_exc(limit=-3))
        again = conv.text
    if again != conv.text:
        t.c["changed by a second conversion"] += 1
        t.example("changed by a second conversion", path)
    t1 = time.perf_counter()
    signal.alarm(LIMIT)
    try:
        codes = [d.code for d in batch.check_script(conv.text)]
        t.check_ms.append((time.perf_counter() - t1) * 1000)
    except TimeoutError:  # counted, and left out of the times
        t.c[f"jobspec check over {LIMIT} s"] += 1
        t.example(f"jobspec check over {LIMIT} s", path)
        codes = []
    finally:
        signal.alarm(0)
    steps = conv.text.count("flux run")
    t.c["flux run lines"] += steps
    for code in ("JS587", "JS588"):
        if code in codes:
            t.c[f"{code} (scripts)"] += 1
            t.c[f"{code} (lines)"] += codes.count(code)
            t.example(code, path)
    if written is not None:
        written.append((path, conv.text))


def _launch_lines(path: str, text: str, conv: convert.Conversion, t: Tally) -> None:
    for f in conv.findings:
        if f.kind == "command":
            t.c["launch lines converted"] += 1
        elif f.kind == "launch":
            t.c["launch lines left with a reason"] += 1
            cls, detail = launch_class(f.message)
            t.left[cls] += 1
            t.left_detail[detail] += 1
            t.example("left: " + cls, path)
            t.example("left: " + detail, path)
    silent = left_silently(text, conv)
    t.c["launcher words left without a reason"] += len(silent)
    for line in silent:
        t.example("silent: " + line[:70], path)


def _flux(job: tuple[str, str]) -> tuple[str, str | None]:
    """(path, None) when real `flux batch --dry-run` accepts the script, else its reason."""
    path, text = job
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "job.sh").write_text(text)
        dry = subprocess.run(
            [FLUX, "batch", "--dry-run", "job.sh"], capture_output=True, text=True, cwd=tmp
        )
    return path, None if dry.returncode == 0 else flux_reason(dry.stderr)


def flux_all(written: list[tuple[str, str]], t: Tally, jobs: int) -> None:
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for path, why in pool.map(_flux, written):
            if why is None:
                t.c["flux accepts"] += 1
                continue
            t.c["flux refuses"] += 1
            t.refused[why] += 1
            t.example("flux: " + why, path)


def _ms(xs: list[float]) -> str:
    if not xs:
        return "-"
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(len(xs) * 0.95))]
    return (
        f"mean {statistics.fmean(xs):.1f} ms, median {statistics.median(xs):.1f}, "
        f"p95 {p95:.1f}, max {xs[-1]:.1f}"
    )


def summary(name: str, t: Tally) -> dict:
    c = t.c
    found = c["launch lines converted"] + c["launch lines left with a reason"]
    written = c["flux accepts"] + c["flux refuses"]
    return {
        "scheduler": name,
        "scripts": t.n,
        "counts": dict(c),
        "launch lines found": found,
        "left (%)": round(100 * c["launch lines left with a reason"] / found, 1) if found else 0,
        "flux accepts (%)": round(100 * c["flux accepts"] / written, 1) if written else None,
        "left by class": dict(t.left.most_common()),
        "left by detail": dict(t.left_detail.most_common(25)),
        "flux refusals": dict(t.refused.most_common()),
        "convert": _ms(t.convert_ms),
        "check": _ms(t.check_ms),
        "examples": t.examples,
    }


def show(s: dict, examples: bool) -> None:
    c = s["counts"]
    print(f"\n== {s['scheduler']}: {s['scripts']} scripts")
    for key in (
        "converted", "refused by the conversion", "traceback", "changed by a second conversion",
        "flux accepts", "flux refuses", "launch lines converted",
        "launch lines left with a reason", "launcher words left without a reason",
        "flux run lines", "JS587 (scripts)", "JS587 (lines)", "JS588 (scripts)",
        "JS588 (lines)", f"jobspec check over {LIMIT} s",
    ):  # fmt: skip
        print(f"  {key:40} {c.get(key, 0)}")
    print(f"  launch lines left: {s['left (%)']}% of {s['launch lines found']}")
    print(f"  flux accepts: {s['flux accepts (%)']}% of the scripts written")
    print(f"  convert: {s['convert']}\n  check:   {s['check']}")
    for title, key in (("left, by class", "left by class"), ("flux refusals", "flux refusals")):
        if s[key]:
            print(f"  {title}:")
            for k, n in s[key].items():
                print(f"    {n:5}  {k}")
    if examples:
        print("  examples:")
        for k, p in sorted(s["examples"].items()):
            print(f"    {k}\n      {p}")


def _stuck(signum, frame):
    raise TimeoutError


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", type=Path, nargs="?", default=os.environ.get("JOBSPEC_CORPUS"))
    ap.add_argument(
        "--sample", default=DEFAULT_SAMPLE, help="scheduler=N,... (default %(default)s)"
    )
    ap.add_argument("--all", action="store_true", help="every script, no sample")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--no-flux", action="store_true", help="no flux batch --dry-run")
    ap.add_argument("--jobs", type=int, default=1, help="flux batch --dry-run at once")
    ap.add_argument("--examples", action="store_true", help="a path for each class")
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--list", type=Path, help="write the sampled paths here, one a line")
    a = ap.parse_args(argv)
    signal.signal(signal.SIGALRM, _stuck)
    if a.corpus is None:
        ap.error("give the corpus (or set JOBSPEC_CORPUS)")
    corpus = Corpus(a.corpus)
    groups, skipped = by_scheduler(corpus.files())
    sizes = None if a.all else {k: int(v) for k, v in (p.split("=") for p in a.sample.split(","))}
    chosen = sample(groups, sizes, a.seed)
    print(
        f"corpus {a.corpus} {corpus.commit[:12]}; scripts per scheduler (distinct): "
        + ", ".join(f"{s} {len(groups[s])}" for s in SCHEDULERS)
        + f"; left out: {skipped}"
    )
    if a.list:
        a.list.write_text("".join(f"{s}\t{p}\n" for s in SCHEDULERS for p, _ in chosen[s]))
    out = []
    for s in SCHEDULERS:
        t = Tally()
        written: list | None = None if a.no_flux else []
        for path, text in chosen[s]:
            one(path, text, s, t, written)
        flux_all(written or [], t, a.jobs)
        out.append(summary(s, t))
        show(out[-1], a.examples)
    if a.json:
        a.json.write_text(
            json.dumps({"seed": a.seed, "commit": corpus.commit, "figures": out}, indent=1)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
