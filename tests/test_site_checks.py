"""Will it run here? The checks against a site profile (JS650-JS655), at the token that
causes each, in jobspecs, batch scripts and `jobspec new` command lines; the readers of
Flux's own notations the checks use (held to the project's grammars); that the checks
and the ingest plugin import nothing but the standard library. The real-Flux tier holds
the verdicts to a real instance's (tests/flux/test_flux_site_proof.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_cli
from hypothesis import given
from hypothesis import strategies as st

from jobspec_lsp.notations import formats
from jobspec_lsp.rules import analysis
from jobspec_lsp.script import batch
from jobspec_lsp.site import checks, hostlists, ingest, notation, profile

REPO = Path(__file__).resolve().parent.parent
SITES = REPO / "tests" / "data" / "sites"
EXAMPLE = profile.load(REPO / "examples" / "site")
HETERO = profile.load(SITES / "hetero")


def job(nodes=None, slots=1, cores=1, gpus=0, **system):
    slot = {
        "type": "slot",
        "count": slots,
        "label": "task",
        "with": [{"type": "core", "count": cores}]
        + ([{"type": "gpu", "count": gpus}] if gpus else []),
    }
    res = [{"type": "node", "count": nodes, "with": [slot]}] if nodes else [slot]
    return {
        "version": 1,
        "resources": res,
        "tasks": [{"command": ["app"], "slot": "task", "count": {"per_slot": 1}}],
        "attributes": {"system": system},
    }


def found(site, js):
    return [(f.rule, f.cause, f.stage) for f in checks.check(site, js)]


# ----------------------------------------------------------------------------- verdicts
@pytest.mark.parametrize(
    ("js", "want"),
    [
        (job(queue="debug", duration=600), []),
        (job(queue="Debug", duration=600), [("unknown-queue", "queue", "queue")]),
        (job(duration=600), [("no-queue", "queue", "queue")]),
        (job(nodes=3, queue="debug", duration=60), [("size", "nodes", "limit")]),
        (job(slots=4, queue="batch", duration=60), [("size", "slots", "limit")]),
        (job(queue="debug", duration=7200), [("duration", "duration", "limit")]),
        (job(queue="debug"), [("duration", "duration", "limit")]),  # unlimited
        (job(nodes=1, gpus=5, queue="gpu"), [("unsatisfiable", "gpus", "feasibility")]),
        (job(nodes=2, slots=4, gpus=2, queue="gpu"), [
            ("unsatisfiable", "slots", "feasibility"), ("size", "gpus", "limit")]),
        (job(nodes=1, cores=33, queue="debug", duration=60), [
            ("unsatisfiable", "cores", "feasibility")]),
        (job(slots=129, queue="debug", duration=60), [("unsatisfiable", "slots", "feasibility")]),
        (job(nodes=9, queue="batch", duration=60), [
            ("unsatisfiable", "nodes", "feasibility"), ("size", "nodes", "limit")]),
        (job(queue="debug", duration=60, constraints={"properties": ["a100"]}), [
            ("unsatisfiable", "constraints", "feasibility")]),
        (job(queue="debug", duration=60, constraints={"properties": ["^debug"]}), [
            ("unsatisfiable", "constraints", "feasibility")]),
        (job(queue="gpu", constraints={"properties": ["a100"]}), []),
        (job(queue="debug", duration=60, constraints={"hostlist": ["foo9"]}), [
            ("unknown-host", "constraints", "queue")]),
        # the host check comes first, before the queue's
        (job(queue="nosuch", constraints={"hostlist": ["foo9"]}), [
            ("unknown-host", "constraints", "queue")]),
        (job(queue="debug", duration=60, constraints={"hostlist": ["node[2-3]"]}), []),
        (job(queue="debug", duration=60, constraints={"hostlist": ["gpu0"]}), [
            ("unsatisfiable", "constraints", "feasibility")]),
        (job(queue="debug", duration=60, constraints={"ranks": ["20"]}), [
            ("unsatisfiable", "constraints", "feasibility")]),
        # a rank not on the site, under `or`: the other side still matches
        (job(queue="debug", duration=60, constraints={"or": [{"ranks": ["20"]}, {"ranks": ["1"]}]}), []),
        (job(queue="debug", duration=60, constraints={"not": [{"ranks": ["0-3"]}]}), [
            ("unsatisfiable", "constraints", "feasibility")]),
    ],
)  # fmt: skip
def test_what_stops_a_job_on_a_site(js, want):
    assert found(HETERO, js) == want


def test_messages_say_what_the_job_asks_and_what_the_queue_has():
    (f,) = checks.check(HETERO, job(nodes=1, gpus=8, queue="gpu"))
    assert f.message.startswith("asks 8 GPUs per node; nodes in queue `gpu` have 4")
    assert "`gpu[0-3]`" in f.message and "Unsatisfiable request" in f.message
    (f,) = checks.check(HETERO, job(queue="Debug"))
    assert "did you mean `debug`" in f.message and "case-sensitive" in f.message
    (f,) = checks.check(HETERO, job(queue="debug", duration=60, constraints={"properties": ["x"]}))
    assert "no node on this site has the property `x`" in f.message


def test_the_default_duration_trap():
    trap = profile.load(SITES / "trap")
    (f,) = checks.check(trap, job(queue="debug"))
    assert f.rule == "duration" and "flux-core#6341" in f.message and "2h" in f.message
    assert checks.check(trap, job(queue="debug", duration=1800)) == []
    assert checks.check(trap, job()) == []  # batch: no limit


def test_a_site_without_queues():
    cpu_noq = profile.from_config({"policy": {"limits": {"duration": "1h"}}}, r=json.loads(
        (SITES / "cpu" / "R.json").read_text()))  # fmt: skip
    assert found(cpu_noq, job(queue="debug")) == [("unknown-queue", "queue", "queue")]
    assert found(cpu_noq, job()) == [("duration", "duration", "limit")]
    assert checks.check(cpu_noq, job(duration=60)) == []


def test_a_virtual_queue_takes_its_parents_requires_and_limits():
    config = {
        "queues": {
            "batch": {"requires": ["batch"], "policy": {"limits": {"duration": "8h"}}},
            "short": {"parent": "batch", "policy": {"limits": {"duration": "15m"}}},
        },
        "ingest": {"validator": {"plugins": ["jobspec", "feasibility"]}},
    }
    site = profile.from_config(config, r=json.loads((SITES / "hetero" / "R.json").read_text()))
    assert found(site, job(queue="short", duration=1800)) == [("duration", "duration", "limit")]
    assert found(site, job(queue="short", duration=60, constraints={"properties": ["gpu"]})) == [
        ("unsatisfiable", "constraints", "feasibility")
    ]


def test_without_the_feasibility_validator_the_job_is_accepted_and_never_runs():
    config = dict(HETERO.config, ingest={})
    site = profile.from_config(config, r=json.loads((SITES / "hetero" / "R.json").read_text()))
    (f,) = checks.check(site, job(nodes=1, gpus=8, queue="gpu"))
    assert f.stage == checks.NEVER and "never starts" in f.message
    # the plugin refuses only what Flux refuses, unless the site asks it to be strict
    assert ingest.verdict(site, job(nodes=1, gpus=8, queue="gpu")) is None
    errno, message = ingest.verdict(site, job(nodes=1, gpus=8, queue="gpu"), strict=True)
    assert errno == 19 and message.startswith("jobspec-lsp: asks 8 GPUs per node")


def test_a_big_site_is_a_few_node_classes():
    lite = [
        {"rank": "0-9999", "children": {"core": "0-63"}},
        {"rank": "10000-10999", "children": {"core": "0-63", "gpu": "0-7"}},
    ]
    r = {"version": 1, "execution": {"R_lite": lite, "nodelist": ["n[0-10999]"],
                                     "properties": {"gpu": "10000-10999", "pdebug": "0-63"}}}  # fmt: skip
    site = profile.from_config({"queues": {"pdebug": {"requires": ["pdebug"]}}}, r=r)
    assert len(site.classes) == 3 and site.nodes == 11000
    (f,) = checks.check(site, job(nodes=100, queue="pdebug"))
    assert "asks 100 nodes; queue `pdebug` has 64" in f.message


# ----------------------------------------------------------------------------- nestings
def res(kind, n, *inside, label="task"):
    vertex = {"type": kind, "count": n} | ({"label": label} if kind == "slot" else {})
    return vertex | ({"with": list(inside)} if inside else {})


def core(n):
    return res("core", n)


def gpu(n):
    return res("gpu", n)


def nested(resources, **system):
    resources = resources if isinstance(resources, list) else [resources]
    return job(**system) | {"resources": resources}


# hetero: batch = 8 nodes of 32 cores, debug = 4 of 32 (at most 2 nodes), gpu = 4 of 64
# cores and 4 GPUs (at most 8 GPUs); at most 256 cores in all. Each verdict is real
# Flux's (tests/flux/test_flux_site_proof.py submits the same jobs).
UNSAT = ("unsatisfiable", "resources", "feasibility")


@pytest.mark.parametrize(
    ("resources", "queue", "want"),
    [
        # a slot holding nodes: as many nodes as slots times nodes, each with the cores
        (res("slot", 2, res("node", 1, core(4))), "batch", []),
        (res("slot", 1, res("node", 2, core(4))), "batch", []),
        (res("slot", 2, res("node", 1, res("slot", 4, core(8)))), "batch", []),
        (res("cluster", 1, res("slot", 2, res("node", 1, core(1)))), "batch", []),
        (res("node", 1, res("slot", 1, core(16)), res("slot", 1, core(16), label="b")), "batch", []),
        (res("slot", 2, res("node", 1, core(8), gpu(2))), "gpu", []),
        (res("cluster", 1, res("slot", 1, core(1))), "batch", [("size", "slots", "limit")]),
        (res("slot", 9, res("node", 1, core(1))), "batch", [
            ("unsatisfiable", "nodes", "feasibility"), ("size", "nodes", "limit")]),
        (res("slot", 2, res("node", 1, core(33))), "batch", [
            ("unsatisfiable", "cores", "feasibility")]),
        (res("slot", 2, res("node", 1, res("slot", 4, core(9)))), "batch", [
            ("unsatisfiable", "slots", "feasibility")]),
        (res("slot", 2, res("node", 1, core(1), gpu(5))), "gpu", [
            ("unsatisfiable", "gpus", "feasibility"), ("size", "gpus", "limit")]),
        (res("slot", 5, res("node", 1, core(1), gpu(1))), "gpu", [
            ("unsatisfiable", "nodes", "feasibility"), ("size", "gpus", "limit")]),
        # counted as flux-core's jj.c counts: the nodes multiplied down, the slots by them
        (res("slot", 3, res("node", 1, core(1))), "debug", [("size", "nodes", "limit")]),
        (res("slot", 4, res("node", 1, core(32))), "batch", [("size", "cores", "limit")]),
        (res("slot", 2, res("node", 1, gpu(1))), "gpu", [("size", "slots", "limit")]),
        (res("node", 1, core(1)), "batch", [("size", "slots", "limit")]),
        # what R has no place for
        (res("slot", 1, res("slot", 1, core(1), label="b")), "batch", [
            ("unsatisfiable", "slots", "feasibility"), ("size", "slots", "limit")]),
        (res("node", 1, res("node", 1, res("slot", 1, core(1)))), "batch", [
            ("unsatisfiable", "nodes", "feasibility")]),
        (res("slot", 2, res("node", 1, res("socket", 1, core(2)))), "batch", [UNSAT]),
        (res("node", 1, res("slot", 1, core(1), core(1))), "batch", [
            ("unsatisfiable", "cores", "feasibility")]),
        (res("node", 1, res("slot", 1, core(1)), core(1)), "batch", [
            ("unsatisfiable", "slots", "feasibility")]),
        (res("node", 1, res("slot", 1, core(1), res("memory", 1))), "batch", [UNSAT]),
        (res("slot", 1, res("cluster", 1, res("node", 1, core(1)))), "batch", [UNSAT]),
        (res("node", 1, res("slot", 1)), "batch", [
            ("unsatisfiable", "slots", "feasibility"), ("size", "slots", "limit")]),
        ([res("slot", 1, core(1)), res("slot", 1, core(1), label="b")], "batch", [
            UNSAT, ("size", "slots", "limit")]),
        # slots side by side: Fluxion places the last; the others add their cores and GPUs
        # to its node's, and count in the totals of R as a whole
        (res("node", 1, res("slot", 1, core(1), core(1)), res("slot", 1, core(2), label="b")),
         "batch", []),
        (res("node", 1, res("slot", 1, core(30)), res("slot", 2, core(1), label="b")), "batch", []),
        (res("node", 1, res("slot", 1, core(31)), res("slot", 2, core(1), label="b")), "batch", [
            ("unsatisfiable", "cores", "feasibility")]),
        (res("node", 1, res("slot", 2, core(1)), res("slot", 1, core(1), label="b")), "batch", [
            ("unsatisfiable", "slots", "feasibility")]),
        (res("cluster", 1, res("slot", 1, core(1)), res("slot", 1, core(1), label="b")), "batch", [
            ("unsatisfiable", "slots", "feasibility"), ("size", "slots", "limit")]),
        (res("cluster", 1, res("slot", 1, res("node", 14, core(1))),
             res("slot", 1, res("node", 2, core(1)), label="b")), "debug", []),
        (res("cluster", 1, res("slot", 1, res("node", 15, core(1))),
             res("slot", 1, res("node", 2, core(1)), label="b")), "debug", [UNSAT]),
    ],
)  # fmt: skip
def test_resources_nested_as_fluxion_places_them(resources, queue, want):
    assert found(HETERO, nested(resources, queue=queue, duration=60)) == want


def test_a_slot_holding_nodes_is_judged_on_each_node():
    js = nested(res("slot", 2, res("node", 1, core(1))), queue="debug", duration=60)
    assert checks.check(HETERO, js) == []
    # one host left: the two slots need two nodes
    narrow = js | {"attributes": {"system": js["attributes"]["system"] | {
        "constraints": {"hostlist": ["node0"]}}}}  # fmt: skip
    (f,) = checks.check(HETERO, narrow)
    assert f.message.startswith("asks 2 nodes; queue `debug` matching the constraints has 1")
    js = nested(res("slot", 2, res("node", 1, core(40))), queue="batch", duration=60)
    (f,) = checks.check(HETERO, js)
    assert f.message.startswith("asks 40 cores per node; nodes in queue `batch` have 32")
    assert f.path == ("resources", 0, "with", 0, "with", 0, "count")
    js = nested(res("slot", 2, res("node", 1, res("slot", 2, core(40)))), queue="gpu")
    (f,) = checks.check(HETERO, js)
    assert f.message.startswith("asks 80 cores per node (2 slots of 40 cores on each node)")


def test_what_r_has_no_place_for_is_said_in_the_sites_words():
    cpu = profile.load(SITES / "cpu")
    socket = nested(res("node", 1, res("socket", 1, res("slot", 1, core(1)))))
    (f,) = checks.check(cpu, socket | {"attributes": {"system": {"duration": 60}}})
    assert f.message == (
        "asks for `socket` resources; this site's R has only nodes and cores (Flux refuses "
        "the job: 'Unsatisfiable request')"
    )
    assert f.path == ("resources", 0, "with", 0, "type")
    (f,) = checks.check(HETERO, socket | {"attributes": {"system": {"queue": "gpu"}}})
    assert "this site's R has only nodes, cores and GPUs" in f.message
    memory = nested(res("node", 1, res("slot", 1, core(1), res("memory", 1))), queue="gpu")
    (f,) = checks.check(HETERO, memory)
    assert f.message.startswith("`memory` is not a resource type Fluxion knows")
    assert "'Value of \"type\" must be a resource type known to fluxion'" in f.message
    js = nested(res("node", 1, res("node", 1, res("slot", 1, core(1)))), queue="gpu")
    (f,) = checks.check(HETERO, js)
    assert f.message.startswith("a `node` inside a `node`: in this site's R a node holds cores and")
    (f,) = checks.check(cpu, js | {"attributes": {"system": {"duration": 60}}})
    assert f.message.startswith("a `node` inside a `node`: in this site's R a node holds cores (")
    (f,) = checks.check(cpu, nested(res("cluster", 2, res("node", 1, res("slot", 1, core(1))))))
    assert f.message.startswith("asks for 2 clusters: this site's R is one cluster")
    (f,) = checks.check(cpu, nested(res("node", 1, res("slot", 1, res("core", 1, gpu(1))))))
    assert f.message.startswith("a `gpu` inside a `core`: in this site's R a core holds nothing")
    # a node under a slot is none of these
    assert not checks.check(cpu, nested(res("slot", 2, res("node", 1, core(4)))))


def test_a_job_flux_cannot_count_is_refused_where_it_counts():
    js = nested(res("slot", 2, res("node", 1, gpu(1))), queue="gpu")
    (f,) = checks.check(HETERO, js)
    assert f.rule == "size" and f.stage == checks.LIMIT
    assert f.message.endswith("(Flux refuses the job: 'Unable to determine slot size')")
    # a site without queues or size limits never counts it: Fluxion places it
    flat = profile.from_config(
        {"ingest": HETERO.config["ingest"]}, r=json.loads((SITES / "hetero" / "R.json").read_text())
    )
    assert checks.check(flat, nested(res("slot", 2, res("node", 1, gpu(1))))) == []
    # a count of 0: Fluxion's feasibility check refuses it; without it, the job-manager
    no_validator = profile.from_config(
        dict(HETERO.config, ingest={}), r=json.loads((SITES / "hetero" / "R.json").read_text())
    )
    js = nested(res("node", 1, res("slot", 1, core(1), gpu(0))), queue="gpu")
    assert found(HETERO, js) == [("unsatisfiable", "gpus", "feasibility")]
    (f,) = checks.check(no_validator, js)
    assert (f.rule, f.stage) == ("size", checks.LIMIT)
    assert f.message.endswith("(Flux refuses the job: 'Invalid count 0 for type 'gpu'')")


# ----------------------------------------------------------------------------- positions
def _at(text, d):
    return text[d.start : d.end]


def test_jobspec_findings_are_at_the_value():
    text = (
        "version: 1\nresources:\n  - type: node\n    count: 1\n    with:\n      - type: slot\n"
        "        count: 1\n        label: task\n        with:\n          - type: core\n"
        "            count: 1\n          - type: gpu\n            count: 8\n"
        "tasks:\n  - command: [app]\n    slot: task\n    count: {per_slot: 1}\n"
        "attributes:\n  system:\n    duration: 172800\n    queue: gpu\n"
    )
    got = [(d.code, _at(text, d)) for d in analysis.check(text, site=EXAMPLE)]
    assert got == [("JS653", "8"), ("JS654", "172800")]
    missing = text.replace("    queue: gpu\n", "    queue: Gpu\n")
    got = [(d.code, _at(missing, d)) for d in analysis.check(missing, site=EXAMPLE)]
    assert got == [("JS650", "Gpu")]


def test_script_findings_are_at_the_option():
    text = "#!/bin/sh\n#flux: -N1 -n1 -g 8\n#flux: -q gpu -t 2d\n#flux: --requires=a100,nope\nflux run app\n"
    got = [(d.code, _at(text, d)) for d in batch.check_script(text, site=EXAMPLE)]
    assert got == [("JS654", "2d"), ("JS653", "nope")]
    text = "#!/bin/sh\n#flux: -N1 -n1 --gpus-per-slot=8 -q gpu\nflux run app\n"
    got = [(d.code, _at(text, d)) for d in batch.check_script(text, site=EXAMPLE)]
    assert got == [("JS653", "8")]
    text = "#!/bin/sh\n#flux: -N1\nflux run app\n"  # no queue on a site with no default
    got = [(d.code, _at(text, d)) for d in batch.check_script(text, site=HETERO)]
    assert got == [("JS651", "#flux:")]
    # without a site: none of these
    assert not [d for d in batch.check_script(text) if d.code.startswith("JS65")]


# ----------------------------------------------------------------------------- the CLI
def test_check_and_new_with_a_site(tmp_path):
    script = tmp_path / "job.sh"
    script.write_text("#!/bin/sh\n#flux: -N1 -q Debug\nflux run app\n")
    got = run_cli("check", "--site", REPO / "examples" / "site", script)
    assert got.returncode == 1
    assert b"job.sh:2:15: error[JS650] no queue `Debug`" in got.stdout
    # the configuration's site, relative to its folder
    (tmp_path / "jobspec.toml").write_text(f'site = "{REPO / "examples" / "site"}"\n')
    assert b"JS650" in run_cli("check", script).stdout
    (tmp_path / "jobspec.toml").write_text('site = "nowhere"\n')
    got = run_cli("check", script)
    assert got.returncode == 2 and b"site profile:" in got.stderr and b"nowhere" in got.stderr
    got = run_cli("new", "--site", REPO / "examples" / "site", "-N1", "-g8", "-q", "gpu", "app")
    assert got.returncode == 1 and got.stdout.startswith(b"jobspec new: error[JS653] -g8: asks 8")
    got = run_cli("new", "--site", REPO / "examples" / "site", "-N1", "-q", "gpu", "app")
    assert got.returncode == 0 and b"queue: gpu" in got.stdout


def test_site_plugin_and_import_from_the_cli(tmp_path):
    got = run_cli("site", "plugin")
    assert got.returncode == 0 and Path(got.stdout.decode().strip()).is_file()
    got = run_cli("site", "import", tmp_path / "p", "--flux", tmp_path / "no-flux")
    assert got.returncode == 2 and b"jobspec site import: error:" in got.stderr
    assert not (tmp_path / "p" / "site.toml").exists()


# ----------------------------------------------------------------- Flux's own notations
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 5)), max_size=6))
def test_idsets_read_as_the_grammar_reads_them(parts):
    runs, at = [], 0
    for gap, width in parts:
        runs.append((at + gap, at + gap + width))
        at = at + gap + width + 2
    text = notation.format_idset(runs)
    assert notation.idset(text) == formats.parse_idset(text) == runs


@given(
    st.floats(0, 1e6, allow_nan=False).map(lambda f: f"{f:g}").filter(lambda s: "e" not in s),
    st.sampled_from(["", "s", "m", "h", "d", "ms"]),
)
def test_durations_read_as_the_grammar_reads_them(number, unit):
    assert notation.fsd(number + unit) == pytest.approx(formats.parse_fsd(number + unit))


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["node", "gpu", "cn-", "x"]),
            st.lists(st.integers(0, 99), min_size=1, max_size=5, unique=True),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_hostlists_read_as_the_grammar_reads_them(terms):
    names = [f"{prefix}{n}" for prefix, ids in terms for n in ids]
    text = hostlists.compress(names)
    assert notation.hostlist(text) == names
    assert formats.hostlist_count(text) == len(names)


def test_the_checks_and_the_plugin_need_only_the_standard_library():
    """Flux runs validator plugins under its own Python, without this package's
    dependencies: importing the plugin (and the checks) with site-packages switched off
    works and loads nothing but the standard library and the package's site modules."""
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); import jobspec_lsp.site.ingest as i; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('jobspec_lsp', 'lark', 'yaml', 'pygls', 'lsprotocol', 'jsonschema')))"
    )
    got = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe, str(REPO)], capture_output=True, text=True
    )
    assert got.returncode == 0, got.stderr
    loaded = eval(got.stdout)
    assert all(m.startswith("jobspec_lsp") for m in loaded)
    assert "jobspec_lsp.site.checks" in loaded and "jobspec_lsp.diagnostics" not in loaded


def test_docs_site_md_shows_what_the_cli_prints(tmp_path):
    doc = (REPO / "docs" / "site.md").read_text()
    shown = run_cli("site", "show", "examples/site", cwd=REPO)
    assert shown.returncode == 0 and shown.stdout.decode() in doc
    script = doc.split("$ cat job.sh\n", 1)[1].split("$ jobspec check", 1)[0]
    (tmp_path / "job.sh").write_text(script)
    got = run_cli("check", "--site", REPO / "examples" / "site", "job.sh", cwd=tmp_path)
    assert got.returncode == 1 and got.stdout.decode() in doc


def test_a_profile_is_loaded_again_when_its_files_change(tmp_path):
    import os
    import shutil

    from jobspec_lsp.site import cache

    site_dir = tmp_path / "site"
    shutil.copytree(REPO / "examples" / "site", site_dir)
    sites = cache.Sites()
    first, error = sites.get(str(site_dir))
    assert error is None and sites.get(str(site_dir))[0] is first  # held, not read again
    assert not sites.changed()
    toml = site_dir / "site.toml"
    toml.write_text(toml.read_text().replace('duration = "8h"', 'duration = "4h"'))
    os.utime(toml, ns=(1, 1))  # a new stamp even within the clock's resolution
    assert sites.changed() and not sites.changed()
    again, _ = sites.get(str(site_dir))
    assert again is not first and again.queues["batch"].limits.duration == 4 * 3600
    # a check that loads it again first: changed() still says so once (the server then
    # checks every open document again)
    os.utime(toml, ns=(2, 2))
    assert sites.get(str(site_dir))[0] is not again and sites.changed() and not sites.changed()
    (site_dir / "broken.toml").write_text("[queues.x]\nrequire = []\n")
    assert sites.changed()
    site, error = sites.get(str(site_dir))
    assert site is None and "broken.toml" in error and "'require'" in error


def test_the_sites_own_cli_plugins_extend_the_options(tmp_path):
    script = tmp_path / "job.sh"
    script.write_text(
        "#!/bin/sh\n#flux: -N1 -q gpu --site-gpumode=TPX\nflux run --site-gpumode=CPX app\n"
    )
    site = REPO / "examples" / "site"
    plain = run_cli("check", script)
    assert b"[JS570] flux batch has no option --site-gpumode" in plain.stdout
    assert b"[JS584] flux run has no option '--site-gpumode'" in plain.stdout
    assert run_cli("check", "--site", site, script).returncode == 0
    script.write_text(script.read_text().replace("=TPX", "=TPQ"))
    got = run_cli("check", "--site", site, script)
    assert b"job.sh:2:34: error[JS572] --site-gpumode: invalid choice 'TPQ'" in got.stdout
    shown = run_cli("site", "show", site).stdout.decode()
    assert "plugin option --site-gpumode=MODE (run, submit, batch, alloc, bulksubmit)" in shown
    made = run_cli("new", "--site", site, "-N1", "-q", "gpu", "--site-gpumode=SPX", "app")
    assert (
        made.returncode == 0 and b"--site-gpumode: the site's CLI plugin applies it" in made.stderr
    )
    bad = run_cli("new", "--site", site, "-N1", "-q", "gpu", "--site-gpumode=X", "app")
    assert bad.returncode == 2 and b"invalid choice 'X'" in bad.stderr


# ------------------------------------------------------------- found in review, each a class
def _script(text, site=EXAMPLE):
    return [(d.code, d.start, text[d.start : d.end]) for d in batch.check_script(text, site=site)]


def test_a_constraint_finding_is_at_the_word_of_the_requires_that_names_it():
    # the finding about `a1` is not put inside `a100`, nor on the last --requires
    text = (
        "#!/bin/sh\n#flux: -N1 -q gpu\n#flux: --requires=a1\n#flux: --requires=a100\nflux run app\n"
    )
    ((code, at, word),) = _script(text)
    assert (code, word) == ("JS653", "a1") and at == text.index("a1\n")
    # a hosts finding, not on the queue name its message names too
    text = "#!/bin/sh\n#flux: -N1 -q debug\n#flux: --requires=host:gpu0\n#flux: --requires=debug\nflux run app\n"
    assert [(c, w) for c, _, w in _script(text)] == [("JS653", "gpu0")]
    # inside quotes
    text = '#!/bin/sh\n#flux: -N1 -q debug --requires="debug and nope"\nflux run app\n'
    assert [(c, w) for c, _, w in _script(text)] == [("JS653", "nope")]


def test_options_that_do_not_set_the_size_are_not_blamed_for_it(tmp_path):
    got = run_cli("new", "--site", REPO / "examples" / "site", "-q", "batch", "-t", "10m",
                  "--cores=300", "--tasks-per-core=1", "hostname")  # fmt: skip
    assert got.stdout.startswith(b"jobspec new: error[JS653] --cores=300: asks 300 slots")
    # cores in all, over a limit, when only -n gave them: at -n
    text = "#!/bin/sh\n#flux: -n 300 -q debug -t 5m\nflux run app\n"
    assert ("JS655", "300") in [(c, w) for c, _, w in _script(text, HETERO)]


def test_a_count_of_zero_is_refused():
    (f,) = checks.check(EXAMPLE, job(nodes=1, gpus=0, queue="gpu") | {
        "resources": [{"type": "node", "count": 1, "with": [{"type": "slot", "count": 1,
         "label": "task", "with": [{"type": "core", "count": 1}, {"type": "gpu", "count": 0}]}]}]
    })  # fmt: skip
    assert f.rule == "unsatisfiable" and f.cause == "gpus" and "asks 0 of `gpu`" in f.message


def test_a_huge_host_range_is_never_expanded():
    """node[0-99999999] named 100 million hosts one by one (minutes, gigabytes): Flux
    refuses a range over 2**20 hosts ("Invalid hostlist"), and a smaller one that is
    bigger than the site stops at the first host the site lacks."""
    js = job(queue="batch", duration=60, constraints={"hostlist": ["node[0-99999999]"]})
    assert checks.check(EXAMPLE, js) == []  # not judged here: the jobspec rules say it
    text = json.dumps(js)
    said = analysis.check(text, language="json", target="flux-core", site=EXAMPLE)
    assert any("1,048,576" in d.message for d in said)
    js = job(queue="batch", duration=60, constraints={"hostlist": ["node[0-999999]"]})
    assert found(EXAMPLE, js) == [("unknown-host", "constraints", "queue")]


def test_a_driver_script_submits_to_the_site():
    text = (
        "#!/bin/sh\nfor i in 1 2; do\n  flux submit -q nosuch -N 1 ./app\ndone\n"
        "flux run -q debug -N3 -t 5m hostname\nflux submit -N $N -q Debug app\n"
    )
    assert [(c, w) for c, _, w in _script(text)] == [("JS650", "nosuch"), ("JS655", "3")]
    # inside a batch job the allocation is the site: its flux run lines are not the site's
    inside = "#!/bin/sh\n#flux: -N1 -q debug\nflux run -q nosuch hostname\n"
    assert not [c for c, _, _ in _script(inside) if c.startswith("JS65")]


def test_the_plugin_reads_a_site_whose_configuration_has_other_tables():
    config = dict(EXAMPLE.config, accounting={"x": 1}, systemd={"enable": True})
    site = profile.from_config(
        {k: config[k] for k in ingest.READ if k in config},
        r=json.loads((REPO / "examples" / "site" / "R.json").read_text()),
    )
    assert ingest.verdict(site, job(nodes=1, gpus=8, queue="gpu"))[0] == 19


def test_completion_and_hover_of_a_jobspec_from_the_site():
    from jobspec_lsp import kinds

    options = kinds.Options(site=EXAMPLE)
    text = (REPO / "examples" / "v1-node-slot-core.jobspec.yaml").read_text()
    system = text.index("  system:\n") + len("  system:\n")
    text = (
        text[:system]
        + "    queue: g\n    constraints:\n      properties: [a]\n      hostlist:\n        - gpu\n"
        + text[system:]
    )

    def labels(needle):
        got, start, end = kinds.JOBSPEC_YAML.complete(
            text, text.index(needle) + len(needle), options
        )
        return [(c.label, c.detail) for c in got], text[start:end]

    assert labels("queue: g") == (
        [("gpu", "4 nodes, ≤ 1d, default 30m, nnodes ≤ 8, ngpus ≤ 8")],
        "g",
    )
    assert labels("properties: [a") == ([("a100", "4 nodes")], "a")
    hosts, word = labels("- gpu")
    assert word == "gpu" and [h for h, _ in hosts] == ["gpu0", "gpu1", "gpu2", "gpu3"]
    assert hosts[0][1] == "64 cores, 4 GPUs"
    # without a site: none of these
    assert not [c for c in kinds.JOBSPEC_YAML.complete(text, text.index("[a") + 2, kinds.Options())[0]
                if c.label == "a100"]  # fmt: skip
    doc = kinds.JOBSPEC_YAML.read(text.replace("queue: g\n", "queue: gpu\n"))
    md, _, _ = kinds.JOBSPEC_YAML.hover(doc, doc.text.index("queue: gpu") + 8, options)
    assert "**queue `gpu`**" in md and "`gpu[0-3]`: 4 nodes of 64 cores, 4 GPUs" in md
