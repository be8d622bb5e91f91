"""A differential campaign for batch scripts: generated `#flux:` scripts through
flux-core's own BatchCmd (tests/flux/cliside.py: what `flux batch --dry-run` prints)
and through this tool (`jobspec check`'s errors and `new --from-batch`'s jobspec).
Accept or refuse must agree; where both accept, the jobspecs must be the same, the
environment, working directory and resource limits aside. Where this tool refuses what
the dry run prints, the instance's submission must refuse it too. Fixed seed; the
figures are in docs/compatibility.md."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from flux_compare import ask_flux, strip_submitter

from jobspec_lsp.script import batch

HERE = Path(__file__).resolve().parent
COUNT = 1200

FRAGMENTS = [
    "-N1", "-N2", "-N 3", "-N=2", "--nodes=4", "-n1", "-n4", "-n 7", "--nslots=6", "-n 0",
    "-c2", "--cores-per-slot=3", "-g1", "--gpus-per-slot=2", "-x", "--exclusive", "-xN2",
    "-t 5", "-t 1.5h", "--time-limit=30s", "-q batch", "--queue=debug", "-B lab",
    "--job-name=sim", "--job-name 'a b'", '--job-name="x y"', "--output=o.txt",
    "--error=e.txt", "--output=none", "--input=in.txt", "-l", "-u", "-o mpi=spectrum",
    "--setopt=foo", "-S user.k=2", "--setattr=foo=bar", "-S system.duration.x=1",
    "--dependency=afterok:123", "--dependency=afterok:$X", "--requires=ssd",
    "--requires='a|b'", "--signal=TERM@5m", "--signal=sigterm", "--conf=a.b=1",
    "--conf=nope", "--broker-opts=-Sx=1", "--rlimit=-*", "--rlimit=nofle=1",
    "--resources-shape=slot=2/core", "--urgency=hold", "--flags=waitable", "--time=5m",
    "--node=2", "-N two", "-Z", "--bogus", "--exclusive=1", "-N", "--job-name", "foo",
    "-n1 foo -N2", "-n1 # comment", "--job-name=a;b", "--begin-time=25:00",
    "--add-brokers=1", "--dump", "--wrap",
]  # fmt: skip
SENTINELS = ["#flux:", "#flux:", "#FLUX:", "# flux:"]


def scripts(seed: int = 36, count: int = COUNT) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        sentinel = rng.choice(SENTINELS)
        lines = [
            f"{sentinel} {' '.join(rng.sample(FRAGMENTS, rng.randint(1, 3)))}"
            for _ in range(rng.randint(1, 3))
        ]
        head = "#!/bin/sh\n" if rng.random() > 0.03 else ""
        out.append(head + "\n".join(lines) + "\nflux run hostname\n")
    return out


def ours(text: str) -> dict:
    try:
        return {"ok": True, "jobspec": json.loads(json.dumps(batch.jobspec(text, "job.sh", "/")))}
    except batch.BatchError as err:
        return {"ok": False, "error": str(err)}


@pytest.mark.flux
def test_batch_scripts_read_and_built_as_flux_batch_does(flux_exe, flux):
    texts = scripts()
    theirs = ask_flux(flux_exe, "batch", texts)
    differ: list[str] = []
    both = 0
    at_submission: list[dict] = []
    for text, t in zip(texts, theirs):
        o = ours(text)
        errors = [d for d in batch.check_script(text) if d.severity == batch.E]
        no_size = not o["ok"] and "Number of slots" in o["error"]  # JS580: a warning in check
        if o["ok"] == bool(errors) and not no_size:
            differ.append(f"{text!r}: check and new --from-batch disagree")
        if t["ok"] and not o["ok"] and "is not a job id" in o["error"]:
            at_submission.append(t["jobspec"])  # the job manager refuses it, not the dry run
            continue
        if t["ok"] != o["ok"]:
            differ.append(
                f"{text!r}: flux {'accepts' if t['ok'] else 'refuses: ' + t['error']}; "
                f"here {'accepted' if o['ok'] else 'refused: ' + o['error']}"
            )
            continue
        if t["ok"]:
            both += 1
            if strip_submitter(t["jobspec"]) != strip_submitter(o["jobspec"]):
                differ.append(f"{text!r}: the jobspecs differ")
    verdicts = flux.submit([json.dumps(js) for js in at_submission], "1") if at_submission else []
    for v in verdicts:
        if v["ok"]:
            differ.append("a job id refused here was accepted by the instance")
    line = (
        f"batch campaign: {len(texts)} scripts, {both} accepted by both, "
        f"{len(at_submission)} refused here as the submission refuses them, "
        f"{len(differ)} disagree"
    )
    print(line)
    assert not differ, f"{len(differ)} disagree:\n" + "\n".join(differ[:30])
    doc = (HERE.parents[1] / "docs" / "compatibility.md").read_text()
    assert line in doc, f"docs/compatibility.md does not say what was measured: {line}"
