"""A differential campaign for RFC 46 shapes: generated shapes (tests/shapegen.py: built
from fragments that reach every state of Flux's shape lexer and every rule of its
grammar, a third of them mutated, and short random strings of shape characters) read by
flux-core's own shape parser (``flux.shape.parser.ShapeParser``, behind ``flux submit
--resources-shape``) and by :func:`jobspec_lsp.notations.shape.expand` as Flux reads
them (``as_flux``, the lone slot labelled ``task``). Both must accept the same shapes
with the same resources (JSON with its key order left aside: ``1`` and ``1.0`` differ)
and refuse the same. Fixed seeds."""

from __future__ import annotations

import json

import pytest
from shapegen import noise, shapes

from jobspec_lsp.notations import shape

BUILT, NOISE = 4000, 6000


def ours(text: str) -> dict:
    try:
        return {"ok": True, "result": shape.expand(text, label="task", as_flux=True)}
    except shape.ShapeError as err:
        return {"ok": False, "error": err.message}


@pytest.mark.flux
def test_shapes_read_as_flux_core_reads_them(flux):
    texts = shapes(46, BUILT) + noise(46, NOISE)
    theirs = flux.ask("shape", [json.dumps(t) for t in texts])
    differ, taken = [], 0
    for text, t in zip(texts, theirs):
        o = ours(text)
        same = t["ok"] == o["ok"] and (
            not t["ok"]
            or json.dumps(t["result"], sort_keys=True) == json.dumps(o["result"], sort_keys=True)
        )
        taken += t["ok"]
        if not same:
            differ.append(
                f"{text!r}:\n  flux {t.get('result', t.get('error'))}\n"
                f"  ours {o.get('result', o.get('error'))}"
            )
    print(f"shapes: {len(texts)} generated, {taken} read by Flux, {len(differ)} disagree")
    assert not differ, f"{len(differ)} of {len(texts)} disagree:\n" + "\n".join(differ[:20])
    # the generator reaches both sides of Flux's reading
    assert 0.15 * len(texts) < taken < 0.85 * len(texts)
