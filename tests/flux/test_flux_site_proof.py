"""Will it run here? The project's verdict against real Flux's, site by site.

Each profile under tests/data/sites is started as a real Flux instance from the same
directory (its fake R, `noverify`, the feasibility validator on), and several hundred
generated `flux submit` command lines and jobspecs (tests/site_cases.py) are submitted
there with urgency 0 — among them jobspecs whose resources nest as Flux's tools never
write them (a slot holding nodes, a node holding slots holding nodes, ...; Fluxion places
some and refuses others). For every one: the project reports an error exactly when Flux
refuses the job, and for every refusal one of its errors is the code that names Flux's
cause (an unknown queue, a limit, an unsatisfiable request, ...), with the reason Flux
does not give."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
import site_cases
from siteside import flux_verdicts

from jobspec_lsp.site import profile

SITES = sorted((Path(__file__).resolve().parent.parent / "data" / "sites").iterdir())
PER_SITE = (300, 220, 150)  # command lines, jobspecs, jobspecs nested by hand


@pytest.mark.flux
@pytest.mark.parametrize("site_dir", SITES, ids=lambda p: p.name)
def test_our_verdict_is_flux_verdict(flux_exe, site_dir):
    site = profile.load(site_dir)
    reqs = site_cases.requests(site, PER_SITE)
    assert len(reqs) >= 650
    theirs = flux_verdicts(flux_exe, site_dir, reqs)
    wrong, unnamed, tally = [], [], Counter()
    for req, flux in zip(reqs, theirs, strict=True):
        refused, codes, messages = site_cases.our_verdict(site, req)
        tally["refused" if not flux["accepted"] else "accepted"] += 1
        if flux["accepted"] and _slot_holds_node(req):
            tally["slot>node"] += 1
        if refused != (not flux["accepted"]):
            wrong.append((req, flux, codes, messages))
            continue
        if not flux["accepted"]:
            want = site_cases.expected_code(flux["message"])
            tally[want or flux["stage"]] += 1
            if want is not None and want not in codes:
                unnamed.append((req, flux["message"], codes, messages))
    print(f"{site_dir.name}: {len(reqs)} requests, {dict(tally)}")
    assert not wrong, "\n".join(map(repr, wrong[:10])) + f"\n({len(wrong)} disagree)"
    assert not unnamed, "\n".join(map(repr, unnamed[:10])) + f"\n({len(unnamed)} unnamed)"
    # the cases reach both sides of the line
    assert tally["accepted"] >= 50 and tally["refused"] >= 50, tally
    assert tally["slot>node"] >= 3, tally  # jobs whose slot holds nodes, that Flux runs


def _slot_holds_node(req: dict) -> bool:
    if "argv" in req:
        return any(
            re.match(r"--resources-shape=(cluster/)?slot(=\d+)?/node", w) for w in req["argv"]
        )
    top = req["jobspec"]["resources"][0]
    if top.get("type") == "cluster":
        top = top["with"][0]
    return top.get("type") == "slot" and top["with"][0].get("type") == "node"


def _r(kind: str, n: int, *inside: dict, label: str = "task") -> dict:
    vertex: dict = {"type": kind, "count": n}
    if kind == "slot":
        vertex["label"] = label
    if inside:
        vertex["with"] = list(inside)
    return vertex


def _core(n: int) -> dict:
    return _r("core", n)


def _gpu(n: int) -> dict:
    return _r("gpu", n)


# hetero: batch = 8 nodes of 32 cores (at least 1 node), debug = 4 of 32 (at most 2
# nodes), gpu = 4 of 64 cores and 4 GPUs (at most 8 GPUs); at most 256 cores in all
NESTED = [
    # a slot holding nodes: Fluxion places it (so many nodes, each with the slot's cores)
    ("batch", _r("slot", 2, _r("node", 1, _core(4))), None),
    ("batch", _r("slot", 1, _r("node", 2, _core(4))), None),
    ("batch", _r("slot", 2, _r("node", 1, _r("slot", 4, _core(8)))), None),
    ("batch", _r("cluster", 1, _r("slot", 2, _r("node", 1, _core(1)))), None),
    ("batch", _r("node", 1, _r("slot", 1, _core(16)), _r("slot", 1, _core(16), label="b")), None),
    ("gpu", _r("slot", 2, _r("node", 1, _core(8), _gpu(2))), None),
    # ... and refuses it where the nodes are not there
    ("batch", _r("slot", 9, _r("node", 1, _core(1))), "Unsatisfiable request"),
    ("batch", _r("slot", 2, _r("node", 1, _core(33))), "Unsatisfiable request"),
    ("gpu", _r("slot", 2, _r("node", 1, _core(1), _gpu(5))), "Unsatisfiable request"),
    # the job-manager counts its size as flux-core's jj.c does (slots times nodes)
    ("debug", _r("slot", 3, _r("node", 1, _core(1))), "requested nnodes (3) exceeds"),
    ("batch", _r("slot", 4, _r("node", 1, _core(32))), "requested ncores (512) exceeds"),
    ("gpu", _r("slot", 2, _r("node", 1, _gpu(1))), "Unable to determine slot size"),
    ("batch", _r("node", 1, _core(1)), "Unable to determine slot count"),
    # nestings R has no place for
    ("batch", _r("slot", 1, _r("slot", 1, _core(1), label="b")), "Unsatisfiable request"),
    ("batch", _r("node", 1, _r("node", 1, _r("slot", 1, _core(1)))), "Unsatisfiable request"),
    ("batch", _r("slot", 2, _r("node", 1, _r("socket", 1, _core(2)))), "Unsatisfiable request"),
    ("batch", _r("node", 1, _r("slot", 1, _core(1), _core(1))), "Unsatisfiable request"),
    ("batch", _r("node", 1, _r("slot", 1, _core(1), _r("memory", 1))), "known to fluxion"),
    ("batch", [_r("slot", 1, _core(1)), _r("slot", 1, _core(1), label="b")], "Unsatisfiable"),
    # slots side by side: the last is placed, the others add to its node, and to the total
    ("batch", _r("node", 1, _r("slot", 1, _core(1), _core(1)), _r("slot", 1, _core(2), label="b")),
     None),
    ("batch", _r("node", 1, _r("slot", 1, _core(30)), _r("slot", 2, _core(1), label="b")), None),
    ("batch", _r("node", 1, _r("slot", 1, _core(31)), _r("slot", 2, _core(1), label="b")),
     "Unsatisfiable request"),
    ("batch", _r("node", 1, _r("slot", 2, _core(1)), _r("slot", 1, _core(1), label="b")),
     "Unsatisfiable request"),
    ("debug", _r("cluster", 1, _r("slot", 1, _r("node", 14, _core(1))),
                 _r("slot", 1, _r("node", 2, _core(1)), label="b")), None),
    ("debug", _r("cluster", 1, _r("slot", 1, _r("node", 15, _core(1))),
                 _r("slot", 1, _r("node", 2, _core(1)), label="b")), "Unsatisfiable request"),
]  # fmt: skip


def _nested_request(queue: str, resources: dict | list) -> dict:
    return {"jobspec": {
        "version": 1,
        "resources": resources if isinstance(resources, list) else [resources],
        "tasks": [{"command": ["true"], "slot": "task", "count": {"per_slot": 1}}],
        "attributes": {"system": {"duration": 60, "queue": queue}},
    }}  # fmt: skip


@pytest.mark.flux
def test_nested_resources_as_fluxion_places_them(flux_exe):
    site_dir = next(s for s in SITES if s.name == "hetero")
    site = profile.load(site_dir)
    reqs = [_nested_request(queue, resources) for queue, resources, _ in NESTED]
    theirs = flux_verdicts(flux_exe, site_dir, reqs)
    for (_, _, want), req, flux in zip(NESTED, reqs, theirs, strict=True):
        said = None if flux["accepted"] else flux["message"]
        assert (said is None) == (want is None) and (want or "") in (said or ""), (req, flux)
        refused, codes, messages = site_cases.our_verdict(site, req)
        assert refused == (said is not None), (req, said, messages)
        code = site_cases.expected_code(said or "")
        assert code is None or code in codes, (req, said, messages)


NO_VALIDATOR = [
    ("batch", _r("slot", 2, _r("node", 1, _core(4))), None),
    ("batch", _r("slot", 2, _r("node", 1, _r("socket", 1, _core(2)))), None),  # never runs
    ("batch", _r("slot", 2, _r("node", 1, _core(33))), None),  # never runs
    ("debug", _r("slot", 3, _r("node", 1, _core(1))), "requested nnodes (3) exceeds"),
    ("gpu", _r("slot", 2, _r("node", 1, _gpu(1))), "Unable to determine slot size"),
    ("batch", _r("node", 1, _core(1)), "Unable to determine slot count"),
    ("gpu", _r("node", 1, _r("slot", 1, _core(1), _gpu(0))), "Invalid count 0 for type 'gpu'"),
]


@pytest.mark.flux
def test_nested_resources_on_a_site_without_the_feasibility_validator(flux_exe, tmp_path):
    """Without the validator Flux accepts what Fluxion cannot place (the job never runs:
    JS653 says so); the job-manager still refuses what it cannot count."""
    site_dir = tmp_path / "hetero"
    shutil.copytree(next(s for s in SITES if s.name == "hetero"), site_dir)
    (site_dir / "ingest.toml").unlink()
    site = profile.load(site_dir)
    reqs = [_nested_request(queue, resources) for queue, resources, _ in NO_VALIDATOR]
    theirs = flux_verdicts(flux_exe, site_dir, reqs)
    for (_, _, want), req, flux in zip(NO_VALIDATOR, reqs, theirs, strict=True):
        said = None if flux["accepted"] else flux["message"]
        assert (said is None) == (want is None) and (want or "") in (said or ""), (req, flux)
        _, codes, messages = site_cases.our_verdict(site, req)
        refusals = [m for m in messages if "it never starts" not in m]
        assert bool(refusals) == (said is not None), (req, said, messages)
