"""Claims the rules' messages make about Flux, each held against the real thing."""

from __future__ import annotations

import copy
import json

from cases import V1

from jobspec_lsp.rules.analysis import check
from jobspec_lsp.rules.targets import _FluxCore


def test_the_c_v1_checker_refuses_what_js804_and_js604_say(flux):
    """JS804: flux-core's C V1 checker (not its ingest) refuses `exclusive` on a node;
    JS604: it refuses a V1 graph RFC 25 does not allow (ingest accepts both)."""
    exclusive = copy.deepcopy(V1)
    exclusive["resources"][0]["exclusive"] = True
    slot_node = dict(
        copy.deepcopy(V1),
        resources=[
            {"type": "slot", "count": 1, "label": "task", "with": [{"type": "node", "count": 1}]}
        ],
    )
    texts = [json.dumps(j) for j in (V1, exclusive, slot_node)]
    plain, excl, graph = flux.ask("v1check", texts)
    assert plain["ok"]
    assert not excl["ok"] and "exclusive" in excl["error"]
    assert not graph["ok"]
    assert all(v["ok"] for v in flux.submit(texts, "1"))  # ingest takes all three
    assert "JS804" in {d.code for d in check(texts[1], language="json")}
    assert "JS604" in {d.code for d in check(texts[2], language="json")}


def test_the_dependency_schemes_flux_core_has(flux):
    """What --target flux-core says flux-core supports: exactly the schemes whose
    submission does not fail with "not supported"."""
    candidates = list(_FluxCore.SCHEMES) + [
        "afterfinish",
        "afterexcept",
        "string",
        "fluid",
        "in",
        "out",
        "jobid",
        "after-ok",
    ]
    texts = []
    for scheme in candidates:
        js = copy.deepcopy(V1)
        js["attributes"]["system"]["job"] = {"name": "x"}  # for singleton
        value = "" if scheme == "singleton" else "1700000000" if scheme == "begin-time" else "1"
        js["attributes"]["system"]["dependencies"] = [{"scheme": scheme, "value": value}]
        texts.append(json.dumps(js))
    said = flux.submit(texts, "1")
    supported = {s for s, v in zip(candidates, said) if "not supported" not in v.get("error", "")}
    assert supported == set(_FluxCore.SCHEMES), said
