"""A differential campaign: generated `flux submit` command lines through flux-core's own
SubmitCmd (tests/flux/cliside.py) and through `jobspec new`'s reading and builder.
Accept or refuse must agree, and where both accept the jobspecs must be the same, the
environment, working directory and resource limits aside (Flux copies them from the
submitting process). Fixed seed; the figures go to docs/compatibility.md."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from flux_compare import ask_flux, strip_submitter

from jobspec_lsp import convert

HERE = Path(__file__).resolve().parent

# fragments a command line is made of: option words (and their values), right and wrong
FRAGMENTS = [
    ["-N1"], ["-N2"], ["-N", "3"], ["-N=2"], ["--nodes=4"], ["-n1"], ["-n4"], ["-n", "7"],
    ["--ntasks=6"], ["-c2"], ["--cores-per-task=3"], ["-g1"], ["--gpus-per-task=2"], ["-x"],
    ["--exclusive"], ["-xN2"], ["-t", "5"], ["-t", "1.5h"], ["--time-limit=30s"], ["-t0"],
    ["-q", "batch"], ["--queue=debug"], ["-B", "lab"], ["--job-name=sim"],
    ["--job-name", "a b"], ["--output=o.txt"], ["--error=e.txt"], ["--output=none"],
    ["--error=kvs"], ["--input=in.txt"], ["--input=0"], ["-l"], ["--label-io"], ["-u"],
    ["-o", "mpi=spectrum"], ["--setopt=foo"], ["-o", 'x={"a":1}'], ["-S", "user.k=2"],
    ["--setattr=foo=bar"], ["-S", "system.duration.x=1"], ["--dependency=afterok:123"],
    ["--dependency=afterany:f1234"], ["--dependency=singleton"], ["--requires=ssd"],
    ["--requires=host:n[1-3]"], ["--require", "a|b"], ["--signal=TERM@5m"], ["--signal=@30"],
    ["--taskmap=cyclic"], ["--taskmap=cyclic:2"], ["--cores=4"], ["--tasks-per-node=2"],
    ["--tasks-per-core=1"], ["--gpus-per-node=1"], ["--resources-shape=slot=2/core"],
    ["--wait"], ["-v"], ["--quiet"], ["--urgency=hold"], ["--flags=waitable"], ["--dry-run"],
    ["--time=5m"], ["--node=2"], ["-N", "two"], ["-n", "0"], ["-Z"], ["--bogus"],
    ["--exclusive=1"], ["-N"], ["-c", "-1"], ["--job-name"], ["--cc=2-4"], ["--bcc=1"], ["--cc", "x"],
    ["--output=o.{cc}"], ["-n", "{cc}"],
]  # fmt: skip
COMMANDS = [["true"], ["--", "a", "-n4"], ["app", "--flag"], [], ["echo", "{cc}"], ["echo", "{x}"]]
COUNT = 2000


def command_lines(seed: int = 21, count: int = COUNT) -> list[list[str]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        words: list[str] = []
        for frag in rng.sample(FRAGMENTS, rng.randint(0, 4)):
            words.extend(frag)
        out.append(words + rng.choice(COMMANDS))
    return out


def ours(words: list[str]):
    try:
        conv = convert.from_command_line(words + [] if "--format" in words else words + [])
    except convert.UsageError as err:
        return {"ok": False, "error": str(err)}
    if not conv.ok:
        return {"ok": False, "error": "; ".join(d.message for d in conv.blockers)}
    return {"ok": True, "jobspec": json.loads(json.dumps(_yaml(conv.text)))}


def _yaml(text: str):
    import yaml

    return yaml.safe_load(text)


@pytest.mark.flux
def test_jobspec_new_agrees_with_flux_submit_on_generated_command_lines(flux_exe, flux):
    lines = command_lines()
    theirs = ask_flux(flux_exe, "submit", lines)
    differ = []
    both = 0
    ingest: list[tuple[list[str], dict]] = []  # new refuses what job-ingest would refuse
    for words, t in zip(lines, theirs):
        o = ours(words)
        if t["ok"] and not o["ok"] and "job-ingest rejects" in o["error"]:
            ingest.append((words, t["jobspec"]))
            continue
        if t["ok"] != o["ok"]:
            differ.append(
                f"{words}: flux {'accepts' if t['ok'] else 'refuses: ' + t['error']}; "
                f"new {'accepts' if o['ok'] else 'refuses: ' + o['error']}"
            )
            continue
        if t["ok"]:
            both += 1
            a, b = strip_submitter(t["jobspec"]), strip_submitter(o["jobspec"])
            if a != b:
                differ.append(
                    f"{words}:\n  flux {json.dumps(a, sort_keys=True)}\n"
                    f"  new  {json.dumps(b, sort_keys=True)}"
                )
    # what flux submit --dry-run prints but real ingest refuses: jobspec new refuses to
    # write it; the instance says whether ingest refuses it indeed
    verdicts = flux.submit([json.dumps(js) for _, js in ingest], "1") if ingest else []
    for (words, _), v in zip(ingest, verdicts):
        if v["ok"]:
            differ.append(f"{words}: new refuses it for ingest, and ingest accepts it")
    line = (
        f"campaign: {len(lines)} command lines, {both} accepted by both, {len(ingest)} "
        f"refused by new as ingest refuses them, {len(differ)} disagree"
    )
    print(line)
    assert not differ, f"{len(differ)} of {len(lines)} disagree:\n" + "\n".join(differ[:30])
    doc = (HERE.parents[1] / "docs" / "compatibility.md").read_text()
    assert line in doc, f"docs/compatibility.md does not say what was measured: {line}"
