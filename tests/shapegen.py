"""Generated RFC 46 shapes, right and wrong, for holding the shape reader to flux-core's
own (tests/flux/test_flux_shapes.py) and for in-process properties (tests/test_shape.py).

Each shape is built from fragments that reach every corner of Flux's lexer and grammar
(types that hold ``,`` ``:`` ``+`` ``-``, ``slot`` in any case, quotes, counts of every
form and wrong ones, ``x`` and ``x `` as keys, values that are numbers, constants in any
case, words with blanks, JSON lists, nested braces, several slots with and without
labels), then, for one in three, mutated by a character put in, taken out or doubled."""

from __future__ import annotations

import random

TYPES = [
    "node", "core", "gpu", "socket", "memory", "slot", "Slot", "SLOT", "'slot'", '"gpu:a100"',
    "gpu:a100", "a,b", "x", "-core", "+", "'a b'", '""', "n0", "4GB", "ib10g", "cluster",
]  # fmt: skip
COUNTS = [
    "", "", "", "=2", "=4", "=1-4", "=2+", "=2+:2", "=2+:2:*", "=2-64:2:*", "=2-64:1:*",
    "=3-30:1:+", "=[3]", "=[1-2]", "=4,9,16", "=5-2,7", "=1-3,5", "=0", "=01", "= 2",
    "=2 - 4", "=", "=1,", "=[2", "=x", "=2:+", "=2-", "=2+:", "=10", "='2'", "=2]", "=2^",
]  # fmt: skip
KEYS = [
    "x", "+x", "-x", "-y", "x ", "'x'", "a:1", "a:-1.5", "a:1e5", "a:01", "a:True", "b:null",
    "a:b:c", "a: b ", "a:[1,2]", "a:[1,'s']", "a:{b:1,+c}", "a:{}", 'a:"q s"', "unit:GB",
    "count:3", "type:gpu", "label:L", "with:1", "a b:1", "[k]", "", "a:", ":a", "a:1.",
    "a:-0", "z:FALSE", "a:'", "a:{b:{c:d}}", "ranks", "exclusive:false", "a:[]", "+ y",
]  # fmt: skip
LABELS = [
    "{l1}", "{x}", "{'x'}", "{a,x}", "{a,b:2}", "{}", "{-x}", "{ lab }", "{big-1}", '{"my s"}',
    "{a,label:b}", "{a,type:node}",
]  # fmt: skip
NOISE = "=/{}[];,:+-'\" x0\n"


def _dict(rng: random.Random) -> str:
    if rng.random() < 0.6:
        return ""
    return "{" + ",".join(rng.choice(KEYS) for _ in range(rng.randint(0, 3))) + "}"


def _vertex(rng: random.Random, depth: int) -> str:
    t = rng.choice(TYPES)
    text = t + rng.choice(COUNTS)
    slot = t.lower() == "slot"
    if slot and rng.random() < 0.6:
        text += rng.choice(LABELS)
    elif not slot:
        text += _dict(rng)
    if slot or (depth < 4 and rng.random() < 0.5):
        text += "/" + _level(rng, depth + 1)
    return text


def _level(rng: random.Random, depth: int) -> str:
    if depth < 4 and rng.random() < 0.25:
        return "[" + ";".join(_vertex(rng, depth) for _ in range(rng.randint(1, 3))) + "]"
    return _vertex(rng, depth)


def _mutated(rng: random.Random, text: str) -> str:
    at = rng.randint(0, len(text))
    how = rng.choice(("put", "take", "double"))
    if how == "put":
        return text[:at] + rng.choice(NOISE) + text[at:]
    if how == "take" and text:
        return text[:at] + text[at + 1 :]
    return text[:at] + text[at : at + 1] * 2 + text[at + 1 :]


def shapes(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        text = _level(rng, 0)
        if rng.random() < 0.33:
            text = _mutated(rng, text)
        out.append(text)
    return out


ALPHABET = "slotnodeSLx=/{}[];,:+-'\" 0129.eE*^\n\tTrunl"


def noise(seed: int, count: int) -> list[str]:
    """Short random strings over the characters shapes are made of: Flux's lexer and
    grammar on inputs no fragment foresees."""
    rng = random.Random(seed)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 14))) for _ in range(count)]
