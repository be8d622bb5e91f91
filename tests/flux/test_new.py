"""`jobspec new OPTIONS -- CMD` writes the jobspec `flux submit --dry-run OPTIONS CMD`
prints, apart from what flux copies from the submitting process: its environment, its
working directory and its resource limits (`jobspec new` copies nothing; `--env`
values are compared as a part of Flux's environment)."""

from __future__ import annotations

import json

import pytest
from helpers import run_cli

# every option of `jobspec new`, alone and combined
OPTION_SETS = [
    [],
    ["-n1"],
    ["-n2"],
    ["-n7"],
    ["-N1"],
    ["-N2"],
    ["-N3"],
    ["-N1", "-n1"],
    ["-N2", "-n2"],
    ["-N2", "-n4"],
    ["-N2", "-n5"],
    ["-N3", "-n7"],
    ["-N4", "-n8", "-c2"],
    ["-c2"],
    ["-n2", "-c3"],
    ["-N2", "-c2"],
    ["-g1"],
    ["-n2", "-g2"],
    ["-N2", "-n4", "-g1"],
    ["-N1", "-n2", "-c2", "-g1"],
    ["-x", "-N1"],
    ["-x", "-N2", "-n4"],
    ["-N2", "-n2", "-x"],
    ["--nodes=2", "--ntasks=6", "--cores-per-task=2"],
    ["--gpus-per-task=1", "-n3"],
    ["-t", "5"],
    ["-t", "1.5"],
    ["-t", "30s"],
    ["-t", "2h"],
    ["-t", "1d"],
    ["-t", "0"],
    ["-t", "90m"],
    ["--time-limit=10"],
    ["-q", "batch"],
    ["--queue=debug"],
    ["-B", "lab"],
    ["--bank=physics"],
    ["--cwd", "/tmp"],
    ["--cwd=/var/tmp"],
    ["--job-name", "myjob"],
    ["--job-name=a b"],
    ["--input", "/dev/null"],
    ["--output", "out.txt"],
    ["--output", "job-{{id}}.out"],
    ["--error", "err.txt"],
    ["--output=o", "--error=e"],
    ["--output", "none"],
    ["--setattr", "foo=1"],
    ["-S", "foo"],
    ["-S", 'user.x="s"'],
    ["-S", 'system.bar={"a":1}'],
    ["-S", "baz=[1,2]"],
    ["-S", "word=hello"],
    ["-S", ".attributes.user.q=1"],
    ["--dependency", "afterok:123"],
    ["--dependency", "afterany:f1234"],
    ["--dependency", "singleton"],
    ["--dependency", "after:1?foo=1"],
    ["--dependency", "begin-time:1700000000"],
    ["--dependency", "afterok:1", "--dependency", "afternotok:2"],
    ["--dependency", "string:x?a=b&c=2.5"],
    ["--requires", "ssd"],
    ["--requires", "ssd gpu"],
    ["--requires", "-host:vm"],
    ["--requires", "host:n[1-3]"],
    ["--requires", "rank:0-1"],
    ["--requires", "a|b"],
    ["--requires", "not (a|b) c"],
    ["--requires", "a|b", "--requires", "c"],
    ["--requires", "^slow"],
    ["--requires", "a and b or c"],
    ["--resources-shape", "slot=2/core"],
    ["--resources-shape", "node=2/slot/core=2"],
    ["--resources-shape", "slot=4/[core=2;gpu]"],
    ["--resources-shape", "slot=2{x1}/core"],
    ["--resources-shape", "node=2/slot=2{big}/core=4"],
    ["--resources-shape", "slot=3/core", "-n2"],
    ["--resources-shape", "slot=3/core", "-n6"],
    ["--resources-shape", "node{-x}/slot/core"],
    ["--resources-shape", "slot=2+/core"],
    ["-S", "attributes.user.w=2"],
    ["--env", "A=1"],
    ["--env", "A=1", "--env", "B=two words"],
    [
        "-N2",
        "-n4",
        "-c2",
        "-t",
        "1h",
        "-q",
        "batch",
        "--job-name",
        "big",
        "--output",
        "o.{{id}}",
        "--requires",
        "ssd",
        "--dependency",
        "afterok:5",
    ],
]


def _strip(js: dict) -> dict:
    system = js.get("attributes", {}).get("system", {})
    system.pop("environment", None)
    system.pop("cwd", None)
    shell = system.get("shell", {})
    options = shell.get("options", {})
    options.pop("rlimit", None)
    if not options:
        shell.pop("options", None)
    if not shell:
        system.pop("shell", None)
    return js


def test_enough_option_sets():
    assert len(OPTION_SETS) >= 80


@pytest.fixture(scope="module")
def both(flux):
    out = []
    for opts in OPTION_SETS:
        theirs = flux.run("submit", "--dry-run", *opts, "true")
        ours = run_cli("new", "--format", "json", *opts, "--", "true")
        out.append((opts, theirs, ours))
    # what ingest (as shipped) says of flux's own output: where it refuses it for a
    # reason of the file's own, jobspec new refuses to write it
    texts = [t.stdout if t.returncode == 0 else "{}" for _, t, _ in out]
    verdicts = flux.submit(texts, "1")
    return [(o, t, u, v) for (o, t, u), v in zip(out, verdicts)]


SITE = ("is not a valid queue", "job not found", "host constraint contains invalid hosts")


def test_new_is_flux_submit_dry_run(both):
    wrong = []
    for opts, theirs, ours, verdict in both:
        if (
            theirs.returncode == 0
            and not verdict["ok"]
            and not any(s in verdict["error"] for s in SITE)
        ):
            if ours.returncode == 0:
                wrong.append(
                    f"{opts}: ingest rejects flux's own jobspec "
                    f"({verdict['error']}), jobspec new writes one"
                )
            continue
        if theirs.returncode != 0:
            if ours.returncode == 0:
                wrong.append(
                    f"{opts}: flux refuses ({theirs.stderr.strip()[:150]}), jobspec new writes one"
                )
            continue
        if ours.returncode != 0:
            wrong.append(f"{opts}: jobspec new refuses: {ours.stderr.decode().strip()[:200]}")
            continue
        flux_js = json.loads(theirs.stdout)
        env = flux_js["attributes"]["system"].get("environment", {})
        cwd = flux_js["attributes"]["system"].get("cwd")
        our_js = json.loads(ours.stdout)
        our_env = our_js["attributes"]["system"].pop("environment", {})
        if any(env.get(k) != v for k, v in our_env.items()):
            wrong.append(f"{opts}: environment {our_env} is not in flux's")
        if "--cwd" in " ".join(opts) and our_js["attributes"]["system"].get("cwd") != cwd:
            wrong.append(f"{opts}: cwd {our_js['attributes']['system'].get('cwd')} != {cwd}")
        a, b = _strip(flux_js), _strip(our_js)
        if a != b:
            wrong.append(
                f"{opts}:\n  flux    {json.dumps(a, sort_keys=True)}\n"
                f"  jobspec {json.dumps(b, sort_keys=True)}"
            )
    assert not wrong, f"{len(wrong)} of {len(both)} differ:\n" + "\n".join(wrong)


def test_every_result_is_accepted_and_small_ones_run(flux, both):
    ours = [json.loads(u.stdout) for _, _, u, _ in both if u.returncode == 0]
    verdicts = flux.submit(ours, "1")
    refused = [
        f"{js['attributes']['system']}: {v['error']}"
        for js, v in zip(ours, verdicts)
        if not v["ok"] and not any(s in v["error"] for s in SITE)
    ]
    assert not refused, "\n".join(refused)
    # one node, two cores here: run what fits, to completion
    ran = 0
    for js in ours:
        res = js["resources"]
        system = js["attributes"]["system"]
        if json.dumps(res) not in SMALL or any(
            k in system for k in ("queue", "bank", "dependencies", "constraints", "shell")
        ):
            continue
        proc = flux.run(
            "job", "submit", "--wait" if False else "--urgency=16", input=json.dumps(js)
        )
        assert proc.returncode == 0, proc.stderr
        jobid = proc.stdout.strip()
        status = flux.run("job", "status", jobid, timeout=120)
        assert status.returncode == 0, (js, status.stderr)
        ran += 1
    assert ran >= 10


SMALL = {
    json.dumps(r)
    for r in (
        [{"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}],
        [{"type": "slot", "count": 2, "label": "task", "with": [{"type": "core", "count": 1}]}],
        [
            {
                "type": "node",
                "count": 1,
                "exclusive": True,
                "with": [
                    {
                        "type": "slot",
                        "count": 1,
                        "label": "task",
                        "with": [{"type": "core", "count": 1}],
                    }
                ],
            }
        ],
        [{"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 2}]}],
    )
}
