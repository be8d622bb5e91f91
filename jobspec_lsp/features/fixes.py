"""Quick-fixes: a diagnostic (with its data) -> text edits that repair it.

Edits are minimal replacements at the offending token or whole-line
insertions/removals, so comments elsewhere are untouched.  Pure functions;
the server turns them into LSP code actions.
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, replace

import yaml

from jobspec_lsp.diagnostics import RULES, Diagnostic, Severity
from jobspec_lsp.features import directivefix
from jobspec_lsp.features.directivefix import script_comment
from jobspec_lsp.jobspec.document import parse as _parse
from jobspec_lsp.jobspec.tree import Document, Mapping, Scalar, Sequence


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
    # this fix of a rule in SAFE cannot, here, be shown to keep what Flux reads (a
    # suppression inside a string, a command with shell syntax, a guessed encoding, ...)
    unsafe: bool = False

    @property
    def safe(self) -> bool:
        """Whether `check --fix` applies it without --unsafe-fixes: the preferred fix of
        a rule in ``SAFE``, unless this one is marked unsafe."""
        return self.preferred and _safety(self.code) in ("repair", "cosmetic") and not self.unsafe


# What Flux reads is the data of the document (YAML 1.1, or JSON), or for a batch
# script the jobspec `flux batch` builds from it with the lines its shell runs. A safe
# fix is one of two kinds (docs/configuration.md, "Fixes"), declared with its rule
# (``family.error(..., fix=STRATEGY, safety=...)``):
#
# "repair" fixes an error Flux would refuse or misread, and changes the one value the
# error is about to what its message says: a number for a quoted number, seconds for
# "1h", the string as written where a string is required, a command string's words,
# the file type bits a mode lacks, the size the data has, a shape spelt out, the
# unlimited duration V1 requires, utf-8 for utf8. Only on an error: they are reported
# as errors, and a case where the intended value is a guess is marked unsafe.
# "cosmetic" fixes change how the document is written, never what Flux reads: a YAML
# 1.1 value written as every reader reads it (`yes` -> true), an unused suppression
# comment removed. On a document with no error they are the only safe ones.
# Everything else -- a did-you-mean, a removed key, `after` renamed `afterstart` (the
# same to flux-core, but another value), a rewritten script -- is unsafe: shown in the
# editor, applied by `check --fix` only with --unsafe-fixes.


def _codes(safety: str) -> frozenset[str]:
    return frozenset(c for c, r in RULES.items() if r.fix is not None and r.safety == safety)


def __getattr__(name: str):
    """REPAIRS, COSMETIC and SAFE: the codes whose declared fix is of that safety (read
    from the registry when first asked, so every rule module is loaded)."""
    if name == "REPAIRS":
        return _codes("repair")
    if name == "COSMETIC":
        return _codes("cosmetic")
    if name == "SAFE":
        return _codes("repair") | _codes("cosmetic")
    raise AttributeError(name)


def fixes_for(doc: Document, diag: Diagnostic) -> list[Fix]:
    rule = RULES.get(diag.code)
    if rule is None or rule.fix is None:
        return []
    fn = STRATEGIES[rule.fix]
    try:
        got = [f for f in fn(doc, diag) if f is not None]
    except (KeyError, TypeError, ValueError, AttributeError):  # a fix never breaks the server
        return []
    if diag.severity != Severity.ERROR and rule.safety == "repair":
        # a repair changes what Flux reads: only safe on an error (a --target that
        # accepts the value makes the finding a warning)
        got = [replace(f, unsafe=True) for f in got]
    return got


def _replace(doc, d, text, title=None, preferred=True, unsafe=False) -> Fix | None:
    old = doc.text[d.start : d.end]
    if doc.language != "script" and old[:1] in ("&", "!", "*"):
        # an anchored, tagged or aliased node: the rules' replacements are written from
        # the value alone, and would drop the anchor (breaking its aliases) or the tag
        return None
    if _safety(d.code) == "repair" and (d.start, d.end) in _shared(doc):
        unsafe = True  # the value is also used through an alias, where nothing is wrong
    return Fix(
        title or f"Replace {old!r} with {text}",
        (Edit(d.start, d.end, text),),
        d.code,
        preferred,
        unsafe,
    )


def _shared(doc) -> set[tuple[int, int]]:
    """The spans of the nodes reached by more than one path (an anchored node that
    aliases or merge keys use again, and everything in it): computed once per
    document, each node visited once."""
    got = doc.derived.get("shared")
    if got is not None:
        return got
    refs: dict[int, int] = {}
    nodes: dict[int, object] = {}
    children: dict[int, list] = {}
    stack = [doc.root] if doc.root is not None else []
    while stack:
        n = stack.pop()
        if id(n) in nodes:
            continue
        nodes[id(n)] = n
        if isinstance(n, Mapping):
            kids = [x for pair in n.pairs for x in pair if x is not None]
        elif isinstance(n, Sequence):
            kids = list(n.items)
        else:
            kids = []
        children[id(n)] = kids
        for k in kids:
            refs[id(k)] = refs.get(id(k), 0) + 1
            stack.append(k)
    got = set()
    stack = [nodes[i] for i, c in refs.items() if c > 1]
    seen: set[int] = set()
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        got.add((n.start, n.end))  # type: ignore[attr-defined]
        stack.extend(children.get(id(n), ()))
    doc.derived["shared"] = got
    return got


def _data(d, key):
    return (d.data or {}).get(key)


def _replacement(doc, d):
    rep = _data(d, "replacement")
    if rep is None:
        return []
    old = doc.text[d.start : d.end]
    unsafe = False
    if isinstance(rep, list):  # a command string split into words
        unsafe = not _plain_words(old)
        if doc.language == "json":
            rep = json.dumps(rep, ensure_ascii=False)
        else:
            rep = "[" + ", ".join(_yaml_scalar(w) for w in rep) + "]"
    elif rep == f'"{old}"' or rep == json.dumps(old):  # the value as written, quoted
        unsafe = old in _NULLS  # "null" for null is no evident meaning: remove it, or name it
    elif d.code == "JS525":  # a near encoding: only its own name spelt otherwise
        unsafe = _spelling(_unquoted(old)) != _spelling(str(rep))
    elif d.code == "JS527":  # the file type bits of a regular file: only an entry with data
        entry = _parent_mapping(doc, d.start)
        unsafe = entry is None or entry.key_node("data") is None
    return [_replace(doc, d, str(rep), unsafe=unsafe)]


# what YAML 1.1 (and JSON) read as null
_NULLS = frozenset({"~", "null", "Null", "NULL"})
# characters a shell gives a meaning to: a command string holding one is not just words
_SHELL = frozenset("'\"\\$`|&;<>()*?[]{}~#!\n\r")


def _plain_words(source: str) -> bool:
    """Whether a command string (its source text) is words a shell would split the same
    way, none of them an assignment: then its list of words is what was meant."""
    text = _unquoted(source)
    words = text.split()
    return bool(words) and not (set(text) & _SHELL) and "=" not in words[0]


def _unquoted(source: str) -> str:
    if len(source) >= 2 and source[0] == source[-1] and source[0] in "'\"":
        return source[1:-1]
    return source


def _spelling(name: str) -> str:
    return "".join(c for c in name.lower() if c.isalnum())


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
    fix = _replace(doc, d, s, f"Change to {s!r}")
    return [fix] if fix else []


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
        # the string is another value: where a string is required that repairs the
        # error reported there (JS313, JS407), whose own fix is the safe one
        out.append(_replace(doc, d, alt, title, preferred=i == preferred, unsafe=i > 0))
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
        taken: list[tuple[int, int]] = []  # sorted, never overlapping: found by bisection
        for d in diags:
            for fix in fixes_for(doc, d):
                if not fix.preferred or not (fix.safe or unsafe):
                    continue
                spans = [(e.start, e.end) for e in fix.edits]
                if any(_overlaps(taken, a, b) for a, b in spans):
                    continue
                chosen.append(fix)
                for span in spans:
                    bisect.insort(taken, span)
                break
        if not chosen:
            break
        edits = sorted((e for f in chosen for e in f.edits), key=lambda e: e.start)
        parts, pos = [], 0  # one pass: 4,000 edits do not copy the text 4,000 times
        for e in edits:
            parts.append(text[pos : e.start])
            parts.append(e.text)
            pos = e.end
        parts.append(text[pos:])
        text = "".join(parts)
        applied.extend((f.code, f.title) for f in chosen)
    return text, applied


def _overlaps(taken: list[tuple[int, int]], a: int, b: int) -> bool:
    """Whether [a, b) meets a span of ``taken`` (two insertions at one place do too)."""

    k = bisect.bisect_left(taken, (a, a))
    for x, y in taken[max(0, k - 1) : k + 2]:
        if (a < y and x < b) or a == b == x or (x == y == a):
            return True
    return False


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


def _flow_insert(doc, mapping: Mapping, json_entry: str, yaml_entry: str) -> list[Edit]:
    """An entry added first to a flow (or JSON) mapping."""
    entry = json_entry if doc.language == "json" else yaml_entry
    if mapping.pairs:
        first = mapping.pairs[0][0]
        return [Edit(first.start, first.start, entry + ", ")]
    return [Edit(mapping.start, mapping.end, "{" + entry + "}")]


def add_system_edits(doc) -> list[Edit]:
    """Edits adding ``attributes.system`` with ``duration: 0`` (unlimited)."""
    attrs = doc.root.get("attributes")
    key = doc.root.key_node("attributes")
    if not isinstance(attrs, Mapping):
        return []
    if attrs.flow or doc.language == "json":
        return _flow_insert(doc, attrs, '"system": {"duration": 0}', "system: {duration: 0}")
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
    if system.flow or doc.language == "json":
        return _flow_insert(doc, system, '"duration": 0', "duration: 0")
    first = system.pairs[0][0]
    line, start, _ = _line_bounds(doc, first.start)
    return [Edit(start, start, " " * (first.start - start) + "duration: 0\n")]


def _add_system(doc, d):
    edits = add_system_edits(doc)
    attrs = doc.root.get("attributes")
    shared = attrs is not None and (attrs.start, attrs.end) in _shared(doc)
    title = "Add attributes.system with duration: 0 (unlimited)"
    return [Fix(title, tuple(edits), d.code, True, shared)] if edits else []


def _add_duration(doc, d):
    edits = add_duration_edits(doc)
    if not edits:
        return []
    system = doc.root.get("attributes").get("system")
    shared = (system.start, system.end) in _shared(doc)
    return [Fix("Add duration: 0 (unlimited)", tuple(edits), d.code, True, shared)]


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
    key = doc.root.key_node("resources")
    value = doc.root.get("resources")
    title = f"Expand the shape {_data(d, 'shape')!r} into resource vertices"
    if doc.language == "json":
        text = json.dumps(resources, ensure_ascii=False)
        return [Fix(title, (Edit(value.start, value.end, text),), d.code, True)]
    if doc.text[key.end : value.start].strip() != ":" or doc.text[value.start] in "&!*":
        return []  # the value is written elsewhere (an alias), tagged or anchored
    col = key.start - _line_bounds(doc, key.start)[1]
    dumped = yaml.safe_dump(resources, sort_keys=False, default_flow_style=False, indent=2)
    body = "".join("\n" + " " * (col + 2) + line if line else "\n" for line in dumped.splitlines())
    return [Fix(title, (Edit(key.end + 1, value.end, body),), d.code, True)]


def _yaml_scalar(s: str) -> str:

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


def _conversion(doc, d):
    """The whole script converted (JS590): an editor's action, never what `check --fix`
    applies, even with --unsafe-fixes: a conversion rewrites every line, and `jobspec
    convert --in-place` is the command that does it with the original kept (``.orig``)."""
    return [replace(f, preferred=False) for f in _edits(doc, d)]


def _unused_suppression(doc, d):
    """JS913: the comment removed -- safe only where it is a comment to every reader:
    outside every YAML value; in a script, a line the shell skips and no directive word
    (the script's text is part of what Flux runs)."""
    got = _edits(doc, d)
    if not got:
        return []
    (fix,) = got
    line_end = doc.text.find("\n", d.end)
    rest = doc.text[d.end : len(doc.text) if line_end < 0 else line_end]
    if rest.strip() and any(e.text == "" for e in fix.edits):
        # more comment text after it ("# jobspec: ignore[JS201] why"): removing only the
        # suppression would make that text part of the line's value; keep it a comment
        fix = replace(fix, edits=(Edit(d.start, d.end, "#"),))
    if doc.language == "script":
        only_comment = all(script_comment(doc.text, e.start, e.end) for e in fix.edits)
    else:
        only_comment = all(_yaml_comment(doc, e) for e in fix.edits)
    return [fix if only_comment else replace(fix, unsafe=True)]


def _yaml_comment(doc, e: Edit) -> bool:
    """Whether the text ``e`` removes holds no part of any value (a `# jobspec:` inside a
    quoted or block scalar is the value's text) and its removal joins no blank lines to
    a block scalar's end (a `|+` scalar keeps them)."""
    for node in _scalars(doc):
        if node.start < e.end and e.start < node.end:
            return False
        if (
            node.style in ("|", ">")
            and node.end <= e.start
            and not doc.text[node.end : e.start].strip()
        ):
            return False
    return True


def _scalars(doc) -> list[Scalar]:
    """Every scalar of the document, keys too (computed once per document)."""
    got = doc.derived.get("scalars")
    if got is None:
        got = []
        stack = [doc.root] if doc.root is not None else []
        while stack:
            n = stack.pop()
            if isinstance(n, Scalar):
                got.append(n)
            elif isinstance(n, Mapping):
                for k, v in n.pairs:
                    stack.extend(x for x in (k, v) if x is not None)
            elif isinstance(n, Sequence):
                stack.extend(n.items)
        doc.derived["scalars"] = got
    return got


def _slurm_variable(doc, d):
    rep = _data(d, "replace")
    fix = _replace(doc, d, rep, _data(d, "title")) if rep else None
    return [fix] if fix else []


def _script(name: str):
    """A strategy of :mod:`.directivefix` (a script's directives), its fixes made Fixes."""

    def strategy(doc, d):
        got = directivefix.STRATEGIES[name](doc.text, d)
        fixes = [Fix(t, tuple(Edit(*e) for e in es), d.code, p, u) for t, es, p, u in got]
        if name == "habit" and not fixes:  # not another scheduler's option: a did-you-mean
            fixes = [replace(f, unsafe=True) for f in _replacement(doc, d)]
        return fixes

    return strategy


# the fix strategies a rule's declaration names (``family.error(..., fix="replacement")``)
STRATEGIES = {
    **{name: _script(name) for name in directivefix.STRATEGIES},
    "replacement": _replacement,  # the replacement the finding carries (data)
    "suggestion": _suggestion,  # the did-you-mean of the message
    "edits": _edits,  # several edits the finding carries
    "conversion": _conversion,  # the whole script converted: an editor's action only
    "unused-suppression": _unused_suppression,
    "slurm-variable": _slurm_variable,
    "add-label": _add_label,
    "add-system": _add_system,
    "add-duration": _add_duration,
    "remove-key": _remove_key,
    "ambiguous": _ambiguous,
    "expand-shape": _expand_shape,
}


def _safety(code: str) -> str | None:
    rule = RULES.get(code)
    return rule.safety if rule is not None and rule.fix else None
