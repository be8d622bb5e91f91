"""A differential campaign: generated `flux submit` command lines through flux-core's own
SubmitCmd (tests/flux/cliside.py) and through `jobspec new`'s reading and builder.
Accept or refuse must agree, and where both accept the jobspecs must be the same, the
working directory and resource limits aside (Flux copies them from the submitting
process). Both submit from the same directory (the files options name: rule files,
JSON values and resources) with the same small environment; `jobspec new` starts from
none, so each variable it writes must be Flux's, and each other one Flux writes a copy
of the submitter's. Where `flux submit --dry-run` prints a jobspec `jobspec new`
refuses, the instance's job-ingest must refuse that jobspec too. Fixed seed; the
figures go to docs/compatibility.md."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from unittest import mock

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
    # per-task input: flux submit refuses an idset (as its decoder reads one), a file is read
    ["--input=0-1"], ["--input=[0]"], ["--input=1,,2"], ["--input="], ["--input=00"],
    ["--input=4294967296"], ["--input={cc}"],
    # environment rules, in order, on the environment each side starts from
    ["--env=-*"], ["--env=FOO"], ["--env=FOO*"], ["--env=/^F/"], ["--env=X={{rank}}"],
    ["--env=X=$$"], ["--env=Y=a$HOME"], ["--env=Y=${FOO}x"], ["--env=Z=$NOPE"], ["--env=Z=$1"],
    ["--env=^rules.env"], ["--env-file=rules.env"], ["--env-file=missing.env"],
    ["--env-remove=FOO*"], ["--env-remove=/(/"], ["--env="], ["--env=A=1", "--env=B=$A"],
    ["--env=-HOME"], ["--env=/(/"], ["--env=FLUX_JOB_CC=9"],
    # attribute and shell option keys: any dotted text, empty parts too; values from files
    ["-S", "user.=1"], ["-S", "=1"], ["-S", ""], ["-S", "a..b=1"], ["-S", ".=2"],
    ["-S", "attributes.=3"], ["-S", "..x=1"], ["-S", "user.k=1", "-S", "user.k.j=2"],
    ["-S", "^user.v=value.json"], ["-S", "^user.v=bad.json"], ["-S", "^^user.w=value.json"],
    ["-o", "a..b=1"], ["-o", "=1"], ["-o", ".x"], ["-o", "^k=value.json"],
    ["-o", "env-expand.Q=1"],
    # empty values Flux takes as not given (or refuses later), and checked limits
    ["--cc="], ["--bcc="], ["-n", ""], ["-c", ""], ["-g", ""], ["-N", ""], ["-N", "0"],
    ["--signal="], ["--resources-shape="], ["--resources-json="], ["--rlimit="],
    ["--rlimit=bogus"], ["--rlimit=core=1"], ["--rlimit=-*"], ["--cc=1,,2"], ["--cc=[]"],
    ["--cc=00"], ["--cc=4294967296"], ["-n", "0", "--cores=2"], ["-g", "", "--cores=2"],
    # resources given whole: shapes as Flux's parser reads them, and JSON files
    ["--resources-shape=slot=2{x}/[core=2;gpu]"], ["--resources-shape=slot=2+/core"],
    ["--resources-shape=slot=2-4/core"], ["--resources-shape=node=2/slot{a}/core"],
    ["--resources-shape=slot/slot{b}/core"], ["--resources-shape=slot{a}/slot/core"],
    ["--resources-shape=node{x}/slot=3/core"], ["--resources-shape=slot=[2]/core=2{x}"],
    ["--resources-shape=slot=2/core{count:2}"], ["--resources-shape=slot/core{a:[1,'x']}"],
    ["--resources-shape=slot=1,3/core"], ["--resources-shape='slot'=2/core"],
    ["--resources-shape=slot=2/node="], ["--resources-shape=SLOT/core{x }"],
    ["--resources-shape=slot/core=0"], ["--resources-shape=slot/core{a:[1]}/[x]"],
    ["--resources-json=res.json"], ["--resources-json=list.json"],
    ["--resources-json=nores.json"], ["--resources-json=bad.json"],
    ["--resources-json=missing.json"],
    # URIs as urlparse reads them (a line break dropped, a fragment left out, a query key
    # without a value left out), and '--' as a value: Flux's parser makes it an empty list
    ["--dependency=a\nb"], ["--dependency=afterok:1?c"], ["--dependency=AfterOK:1"],
    ["--dependency=afterok:1#frag"], ["--dependency=afterok:1;p"],
    ["--dependency=afterok:1?a=1&a=x&b=1.5"], ["--taskmap=a\nb"], ["--taskmap=Cyclic:2"],
    ["--taskmap=block?x=1"], ["--queue=--"], ["--job-name=--"], ["--ntasks=--"], ["--cc=--"],
    ["--signal=--"], ["--requires=a:b"], ["--requires=rank:x"], ["--bank=--"],
]  # fmt: skip
# the files the command lines name, in the directory both sides submit from
FILES = {
    "rules.env": "A=1\n-FOO\nB=$A-$HOME\nC={{rank}}\n\nFOOBAR\n",
    "value.json": '{"a": [1, 2]}',
    "bad.json": "{not json",
    "res.json": json.dumps({"resources": [{"type": "slot", "count": 2, "label": "task",
                                           "with": [{"type": "core", "count": 1}]}]}),
    "list.json": json.dumps([{"type": "node", "count": 1, "with": [
        {"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 2}]}]}]),
    "nores.json": '{"x": 1}',
}  # fmt: skip
# the submitting environment of both sides
ENVIRON = {"HOME": "/home/u", "PATH": "/usr/bin:/bin", "FOO": "foo", "FOOBAR": "fb",
           "LANG": "C.UTF-8", "SHELL": "/bin/sh"}  # fmt: skip
COMMANDS = [["true"], ["--", "a", "-n4"], ["app", "--flag"], [], ["echo", "{cc}"], ["echo", "{x}"]]
COUNT = 3000


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


def environment_problem(theirs: dict, mine: dict) -> str | None:
    """Why `jobspec new`'s environment is not Flux's: each variable it sets with Flux's
    value, each other one Flux sets a copy of the submitter's (ENVIRON)."""
    flux_env = theirs["attributes"]["system"].get("environment", {})
    our_env = mine["attributes"]["system"].get("environment", {})
    for k, v in our_env.items():
        if flux_env.get(k) != v:
            return f"new sets {k}={v!r}, flux {flux_env.get(k)!r}"
    for k, v in flux_env.items():
        if k not in our_env and ENVIRON.get(k) != v:
            return f"flux sets {k}={v!r}, which is no copy of the submitter's; new leaves it out"
    return None


@pytest.mark.flux
def test_jobspec_new_agrees_with_flux_submit_on_generated_command_lines(
    flux_exe, flux, tmp_path, monkeypatch
):
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    lines = command_lines()
    theirs = ask_flux(flux_exe, "submit", lines, cwd=str(tmp_path), environ=ENVIRON)
    with mock.patch.dict(os.environ, ENVIRON, clear=True):
        mine = [ours(words) for words in lines]
    differ = []
    both = 0
    ingest: list[tuple[list[str], dict]] = []  # new refuses what job-ingest would refuse
    for words, t, o in zip(lines, theirs, mine):
        if t["ok"] and not o["ok"]:
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
            why = environment_problem(t["jobspec"], o["jobspec"])
            a, b = strip_submitter(t["jobspec"]), strip_submitter(o["jobspec"])
            if a != b or why:
                differ.append(
                    f"{words}: {why or ''}\n  flux {json.dumps(a, sort_keys=True)}\n"
                    f"  new  {json.dumps(b, sort_keys=True)}"
                )
    # what flux submit --dry-run prints but real ingest refuses: jobspec new refuses to
    # write it; the instance says whether ingest refuses it indeed
    verdicts = flux.submit([json.dumps(js) for _, js in ingest], "1") if ingest else []
    for (words, _), v in zip(ingest, verdicts):
        if v["ok"]:
            differ.append(f"{words}: new refuses it, and flux submits it: ingest accepts it")
    line = (
        f"campaign: {len(lines)} command lines, {both} accepted by both, {len(ingest)} "
        f"refused by new as ingest refuses them, {len(differ)} disagree"
    )
    print(line)
    assert not differ, f"{len(differ)} of {len(lines)} disagree:\n" + "\n".join(differ[:30])
    doc = (HERE.parents[1] / "docs" / "compatibility.md").read_text()
    assert line in doc, f"docs/compatibility.md does not say what was measured: {line}"
