"""Quick-fixes: a diagnostic (with its data) -> text edits that repair it.

Edits are minimal replacements at the offending token or whole-line
insertions/removals, so comments elsewhere are untouched.  Pure functions;
the server turns them into LSP code actions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .diagnostics import Diagnostic
from .document import Document, Mapping, Scalar, Sequence


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Fix:
    title: str
    edits: tuple[Edit, ...]
    code: str
    preferred: bool = False

    @property
    def safe(self) -> bool:
        """Whether `check --fix` applies it without --unsafe-fixes: the preferred fix of
        a rule whose fix keeps what the user meant (see ``SAFE``)."""
        return self.preferred and self.code in SAFE


# Rules whose preferred fix writes the same meaning in the form Flux wants, never a
# guess: a number for a quoted number, seconds for "1h", a quoted string where a
# string is required, the file type bits a mode lacks, the size data has, a shape
# spelt out, the unlimited duration V1 requires. Everything else -- a did-you-mean, a
# removed key, a rewritten script -- is unsafe: shown in the editor, applied by
# `check --fix` only with --unsafe-fixes.
SAFE = frozenset(
    {
        "JS103", "JS104", "JS113", "JS313", "JS405", "JS406", "JS407", "JS409", "JS410",
        "JS515", "JS525", "JS527", "JS528", "JS605", "JS608", "JS609", "JS905", "JS910",
        "JS913",
    }
)  # fmt: skip


def fixes_for(doc: Document, diag: Diagnostic) -> list[Fix]:
    fn = _FIXERS.get(diag.code)
    if fn is None:
        return []
    try:
        return [f for f in fn(doc, diag) if f is not None]
    except (KeyError, TypeError, ValueError, AttributeError):  # a fix never breaks the server
        return []


def _replace(doc, d, text, title=None, preferred=True) -> Fix:
    old = doc.text[d.start : d.end]
    return Fix(
        title or f"Replace {old!r} with {text}", (Edit(d.start, d.end, text),), d.code, preferred
    )


def _data(d, key):
    return (d.data or {}).get(key)


def _replacement(doc, d):
    rep = _data(d, "replacement")
    if rep is None:
        return []
    if isinstance(rep, list):  # a command string split into words
        rep = "[" + ", ".join(_yaml_scalar(w) for w in rep) + "]"
    return [_replace(doc, d, str(rep))]


def _suggestion(doc, d):
    s = _data(d, "suggestion")
    if not s:
        return []
    mapping = _parent_mapping(doc, d.start)
    if (
        mapping is not None
        and mapping.key_node(s) is not None
        and any(k.start == d.start for k, _ in mapping.pairs)
    ):
        return []  # renaming this key would duplicate an existing one
    return [_replace(doc, d, s, f"Change to {s!r}")]


def _ambiguous(doc, d):
    """JS905: what Flux reads, or the string. Where the jobspec needs a string (a
    command word, an environment value) the string is the preferred fix; on a file
    `mode` neither is (JS527's fix, the full mode, is the one to take)."""
    alts = _data(d, "alternatives") or []
    where = path_to(doc, d.start)
    wants_string = (len(where) == 4 and where[0] == "tasks" and where[2] == "command") or where[
        :3
    ] == ["attributes", "system", "environment"]
    mode = bool(where) and where[-1] == "mode" and "files" in where
    preferred = None if mode else (1 if wants_string and len(alts) > 1 else 0)
    out = []
    for i, alt in enumerate(alts):
        title = f"Write {alt} (what Flux reads)" if i == 0 else f"Write {alt} (keep it a string)"
        out.append(_replace(doc, d, alt, title, preferred=i == preferred))
    return out


def path_to(doc, offset: int) -> list:
    """Keys and indexes from the root to the value starting at ``offset``."""
    path: list = []
    node = doc.root
    while node is not None:
        if isinstance(node, Mapping):
            nxt = None
            for k, v in node.pairs:
                if v is not None and v.start <= offset <= v.end:
                    path.append(getattr(k, "value", None))
                    nxt = v
                    break
            node = nxt
        elif isinstance(node, Sequence):
            nxt = None
            for i, item in enumerate(node.items):
                if item.start <= offset <= item.end:
                    path.append(i)
                    nxt = item
                    break
            node = nxt
        else:
            break
    return path


def apply_fixes(analyse, text: str, unsafe: bool = False, rounds: int = 10):
    """`check --fix`: apply every safe fix (every preferred one with ``unsafe``), check
    again and repeat, until nothing more applies.  ``analyse(text)`` gives (document,
    diagnostics).  Returns (new text, [(code, title)] applied).
    Edits of one round never overlap (a later overlapping fix waits for the next
    round, on the new text)."""
    applied: list[tuple[str, str]] = []
    for _ in range(rounds):
        doc, diags = analyse(text)
        chosen: list[Fix] = []
        taken: list[tuple[int, int]] = []
        for d in diags:
            for fix in fixes_for(doc, d):
                if not fix.preferred or not (fix.safe or unsafe):
                    continue
                spans = [(e.start, e.end) for e in fix.edits]
                if any(a < y and x < b or a == b == x for a, b in spans for x, y in taken):
                    continue
                chosen.append(fix)
                taken.extend(spans)
                break
        if not chosen:
            break
        edits = sorted((e for f in chosen for e in f.edits), key=lambda e: e.start, reverse=True)
        for e in edits:
            text = text[: e.start] + e.text + text[e.end :]
        applied.extend((f.code, f.title) for f in chosen)
    return text, applied


def _line_bounds(doc, offset):
    pos = doc.lines.position(offset)
    start = doc.lines.line_start(pos.line)
    return pos.line, start, start + len(doc.lines.line_text(pos.line))


def _insert_key_after(doc, key_node, text_lines, title, code) -> Fix | None:
    """Insert ``text_lines`` as sibling keys after the line of ``key_node``'s pair."""
    line, start, end = _line_bounds(doc, key_node.start)
    col = key_node.start - start
    indent = " " * col
    body = "".join("\n" + indent + t for t in text_lines)
    return Fix(title, (Edit(end, end, body),), code, True)


def _child_indent(doc, mapping: Mapping, fallback_col: int) -> int:
    if mapping.pairs:
        k = mapping.pairs[0][0]
        return k.start - doc.lines.line_start(doc.lines.position(k.start).line)
    return fallback_col + 2


def _add_label(doc, d):
    vertex = _parent_mapping(doc, d.start)
    if vertex is None:
        return []
    name = _data(d, "suggestion") or "task"
    type_key = vertex.key_node("type")
    return [_insert_key_after(doc, type_key, [f"label: {name}"], f"Add label: {name}", d.code)]


def _parent_mapping(doc, offset):
    """The innermost mapping that has a key starting the line of ``offset`` or containing it."""
    best = None
    stack = [doc.root]
    while stack:
        n = stack.pop()
        if isinstance(n, Mapping):
            if n.start <= offset <= n.end:
                for k, v in n.pairs:
                    if k.start <= offset <= v.end:
                        best = n
                        stack.append(v)
        elif isinstance(n, Sequence):
            stack.extend(i for i in n.items if i.start <= offset <= i.end)
    return best


def add_system_edits(doc) -> list[Edit]:
    """Edits adding ``attributes.system`` with ``duration: 0`` (unlimited)."""
    attrs = doc.root.get("attributes")
    key = doc.root.key_node("attributes")
    if not isinstance(attrs, Mapping):
        return []
    if attrs.flow:
        if attrs.pairs:
            first = attrs.pairs[0][0]
            return [Edit(first.start, first.start, "system: {duration: 0}, ")]
        return [Edit(attrs.start, attrs.end, "{system: {duration: 0}}")]
    col = _child_indent(doc, attrs, key.start - _line_bounds(doc, key.start)[1])
    first = attrs.pairs[0][0]
    line, start, _ = _line_bounds(doc, first.start)
    return [Edit(start, start, " " * col + "system:\n" + " " * (col + 2) + "duration: 0\n")]


def add_duration_edits(doc) -> list[Edit]:
    """Edits adding ``duration: 0`` (unlimited) to an existing ``attributes.system``."""
    attrs = doc.root.get("attributes")
    system = attrs.get("system") if isinstance(attrs, Mapping) else None
    if not isinstance(system, Mapping):
        return []
    if system.flow:
        if system.pairs:
            first = system.pairs[0][0]
            return [Edit(first.start, first.start, "duration: 0, ")]
        return [Edit(system.start, system.end, "{duration: 0}")]
    first = system.pairs[0][0]
    line, start, _ = _line_bounds(doc, first.start)
    return [Edit(start, start, " " * (first.start - start) + "duration: 0\n")]


def _add_system(doc, d):
    edits = add_system_edits(doc)
    return (
        [Fix("Add attributes.system with duration: 0 (unlimited)", tuple(edits), d.code, True)]
        if edits
        else []
    )


def _add_duration(doc, d):
    edits = add_duration_edits(doc)
    return [Fix("Add duration: 0 (unlimited)", tuple(edits), d.code, True)] if edits else []


def _remove_key(doc, d):
    """Remove the key at the diagnostic and its value (whole lines in block style)."""
    mapping = _parent_mapping(doc, d.start)
    if mapping is None:
        return []
    for k, v in mapping.pairs:
        if k.start == d.start:
            name = doc.text[k.start : k.end]
            if mapping.flow:
                return []
            first_line, start, _ = _line_bounds(doc, k.start)
            last_line, _, end = _line_bounds(doc, max(v.end - 1, k.end))
            if doc.text[start : k.start].strip() not in ("", "-"):
                return []
            if doc.text[start : k.start].strip() == "-":
                return []  # the key opens a list item; removing it would change the structure
            end = min(end + 1, len(doc.text))
            return [Fix(f"Remove {name}", (Edit(start, end, ""),), d.code, True)]
    return []


def _expand_shape(doc, d):
    resources = _data(d, "resources")
    if not resources:
        return []
    import yaml

    key = doc.root.key_node("resources")
    value = doc.root.get("resources")
    col = key.start - _line_bounds(doc, key.start)[1]
    dumped = yaml.safe_dump(resources, sort_keys=False, default_flow_style=False, indent=2)
    body = "".join("\n" + " " * (col + 2) + line if line else "\n" for line in dumped.splitlines())
    return [
        Fix(
            f"Expand the shape {_data(d, 'shape')!r} into resource vertices",
            (Edit(key.end + 1, value.end, body),),
            d.code,
            True,
        )
    ]


def _yaml_scalar(s: str) -> str:
    from .document import parse as _parse

    doc = _parse(f"x: {s}\n")
    x = doc.root.get("x") if isinstance(doc.root, Mapping) else None
    ok = not doc.problems and isinstance(x, Scalar) and x.value == s
    return s if ok and s and "," not in s and "[" not in s and "]" not in s else json.dumps(s)


def _edits(doc, d):
    """A fix the rule computed whole: its data's ``edits`` and ``title`` (the Slurm
    conversion, the same on each `#SBATCH` line; an unused suppression removed)."""
    edits = _data(d, "edits")
    if not edits:
        return []
    return [Fix(_data(d, "title"), tuple(Edit(a, b, t) for a, b, t in edits), d.code, True)]


def _slurm_variable(doc, d):
    rep = _data(d, "replace")
    return [_replace(doc, d, rep, _data(d, "title"))] if rep else []


_FIXERS = {
    "JS570": _replacement,  # a batch directive's misspelt option
    "JS590": _edits,
    "JS913": _edits,
    "JS595": _slurm_variable,
    "JS102": _suggestion,
    "JS306": _suggestion,
    "JS527": _replacement,
    "JS528": _replacement,
    "JS103": _replacement,
    "JS113": _replacement,
    "JS201": _replacement,
    "JS307": _suggestion,
    "JS303": _suggestion,
    "JS301": _add_label,
    "JS313": _replacement,
    "JS405": _replacement,
    "JS406": _replacement,
    "JS407": _replacement,
    "JS409": _replacement,
    "JS410": _replacement,
    "JS112": _suggestion,
    "JS309": _suggestion,
    "JS403": _suggestion,
    "JS502": _suggestion,
    "JS513": _suggestion,
    "JS506": _replacement,
    "JS505": _replacement,
    "JS512": _replacement,
    "JS515": _replacement,
    "JS523": _replacement,
    "JS525": _replacement,
    "JS605": _replacement,
    "JS608": _add_system,
    "JS609": _add_duration,
    "JS610": _remove_key,
    "JS611": _remove_key,
    "JS612": _remove_key,
    "JS905": _ambiguous,
    "JS910": _replacement,
    "JS104": _expand_shape,
}
