"""`jobspec fmt`: one style for jobspec files, without losing a comment or
changing what Flux reads.

YAML is laid out by ruamel.yaml's round-trip mode (quote styles, block
scalars, anchors and tags are kept), with three things done around it:

- **Scalars keep their source text.**  ruamel.yaml reads YAML 1.2; Flux reads
  YAML 1.1, where ``yes``, ``0755``, ``1_000``, ``1:30`` or ``2024-01-31`` mean
  something else.  Every single-line value (and every key that is not a plain
  string) is swapped for a placeholder before ruamel sees the text and put
  back verbatim afterwards, so no scalar is ever re-spelt.
- **Comments and blank lines are placed by this module.**  ruamel attaches a
  comment to whatever token precedes it, so a comment written above a key
  would travel with the previous key when keys are reordered.  Here every
  comment is taken out and anchored to the entry it belongs to (the entry it
  sits above, the entry whose line it ends, or the block it closes), and put
  back next to that entry in the output.
- **Every result is checked.**  The output is parsed again with the YAML 1.1
  reader `jobspec check` uses; if the data Flux would read differs in any way,
  or a comment is missing, :class:`FormatError` is raised and nothing is
  written.

JSON jobspecs are formatted as JSON.  See docs/formatting.md for the style.
"""

from __future__ import annotations

import functools
import json
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from . import vocabulary
from .context import kind_of
from .document import Mapping, Scalar, Sequence, parse, to_python, yaml12_value

# canonical key order of the mappings the RFCs define (from the vocabulary); others
# (system attributes, environment, user attributes, ...) keep the order written
ORDER = {
    kind: vocabulary.keys(kind)
    for kind in (
        "root",
        "vertex",
        "task",
        "count",
        "task.count",
        "task.count.per_resource",
        "attributes",
        "dependency",
    )
}

DEFAULT_LINE_LENGTH = 80
# Parser problems that make formatting lose data or produce something Flux cannot
# read anyway: duplicate keys, several documents, unsupported tags, alias bombs.
_REFUSE = ("JS902", "JS903", "JS906", "JS907")

_Loader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when built with it


class FormatError(Exception):
    """A file that is not formatted.  ``start``/``end`` are code-point offsets
    into the input text (the problem's position when the file does not parse;
    0 when the refusal is about the file as a whole)."""

    def __init__(self, message: str, start: int = 0, end: int = 0):
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end


@dataclass
class FormatOptions:
    sort_keys: bool = True
    line_length: int = DEFAULT_LINE_LENGTH
    # problems found while reading the configuration (shown by the CLI)
    warnings: tuple[str, ...] = ()


# --------------------------------------------------------------------------- options
def load_options(path) -> FormatOptions:
    """``[tool.jobspec.format]`` of the nearest ``pyproject.toml`` at or above
    ``path`` that has a ``[tool.jobspec]`` table; the defaults when there is none.
    Never raises: a configuration problem becomes a warning and a default."""
    from .config import find_section

    sec = find_section(path)
    if sec.warning:
        return FormatOptions(warnings=(sec.warning + "; using the default format options",))
    if sec.table is None:
        return FormatOptions()
    return _options_from(sec.table, sec.path)


def _options_from(section, cfg) -> FormatOptions:
    opts = FormatOptions()
    warnings = []
    fmt = section.get("format", {}) if isinstance(section, dict) else None
    if not isinstance(fmt, dict):
        return FormatOptions(
            warnings=(
                f"{cfg}: [tool.jobspec.format] must be a table; using the default format options",
            )
        )
    for key, value in fmt.items():
        if key == "sort-keys":
            if isinstance(value, bool):
                opts.sort_keys = value
            else:
                warnings.append(
                    f"{cfg}: [tool.jobspec.format] sort-keys must be true or false, "
                    f"not {value!r}; using true"
                )
        elif key == "line-length":
            if type(value) is int and 20 <= value <= 10_000:
                opts.line_length = value
            else:
                warnings.append(
                    f"{cfg}: [tool.jobspec.format] line-length must be an integer "
                    f"from 20 to 10000, not {value!r}; using {DEFAULT_LINE_LENGTH}"
                )
        else:
            warnings.append(
                f"{cfg}: [tool.jobspec.format] has no option {key!r} "
                "(known: sort-keys, line-length)"
            )
    opts.warnings = tuple(warnings)
    return opts


# --------------------------------------------------------------------------- entry point
def format_text(text: str, language: str = "yaml", options: FormatOptions | None = None) -> str:
    """The formatted text (``text`` itself when it is already formatted).

    Raises :class:`FormatError` when the text does not parse, or when it cannot
    be formatted without changing what Flux reads or losing a comment."""
    options = options or FormatOptions()
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    doc = parse(body, language)
    if doc.root is None:
        first = doc.problems[0] if doc.problems else None
        msg = first.message if first else "the file holds no jobspec"
        start, end = (first.start, first.end) if first else (0, 0)
        raise FormatError(f"cannot format: {msg}", start + len(bom), end + len(bom))
    for p in doc.problems:
        if p.code in _REFUSE:
            raise FormatError(
                f"not formatted, it would lose data or Flux cannot read it: {p.message}",
                p.start + len(bom),
                p.end + len(bom),
            )
    crlf = "\r\n" in body and body.find("\n") > 0 and body[body.find("\n") - 1] == "\r"
    work = body.replace("\r\n", "\n") if "\r\n" in body else body
    lang = "json" if language == "json" else "yaml"
    try:
        out = _format_json(work, options) if lang == "json" else _YamlFormatter(work, options).run()
    except FormatError as err:  # positions in ``work`` -> positions in ``text``
        if work is not body:
            collapsed = [m.start() - i for i, m in enumerate(re.finditer("\r\n", body))]
            err.start += bisect_right(collapsed, err.start - 1)
            err.end += bisect_right(collapsed, err.end - 1)
        err.start += len(bom)
        err.end += len(bom)
        raise
    except Exception as exc:
        # a bug, or something ruamel.yaml cannot lay out: an error, never a crash
        raise FormatError(
            f"not formatted: the formatter failed ({type(exc).__name__}: {exc}); "
            "please report this file"
        ) from exc
    after = parse(out, lang)
    if after.root is None or not _same(to_python(after.root), to_python(doc.root)):
        raise FormatError(
            "not formatted: the result would change what Flux reads (please report this file)"
        )
    if lang == "yaml" and sorted(_comment_texts(out, after)) != sorted(_comment_texts(body, doc)):
        raise FormatError(
            "not formatted: a comment could not be kept in place (please report this file)"
        )
    if crlf:
        out = out.replace("\n", "\r\n")
    return bom + out


def _same(a, b) -> bool:
    """Equal data, types included (``1``, ``1.0`` and ``true`` differ; NaN equals NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        if len(a) != len(b):
            return False
        kb = {(type(k), k): v for k, v in b.items()}
        return all((type(k), k) in kb and _same(v, kb[(type(k), k)]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and a != a:
        return b != b
    return a == b


# --------------------------------------------------------------------------- comments
_HASH = re.compile(r"(?:^|(?<=[ \t]))#", re.M)


def _find_comments(text: str, spans) -> list[int]:
    """Offsets of the ``#`` of every comment: a ``#`` at a line start or after
    white space that is not inside a scalar's content (``spans``: sorted
    ``(content_start, content_end)`` pairs)."""
    starts = [s for s, _ in spans]
    out = []
    line_end = -1
    for m in _HASH.finditer(text):
        pos = m.start()
        if pos < line_end:
            continue  # a '#' inside a comment
        i = bisect_right(starts, pos) - 1
        if i >= 0 and pos < spans[i][1]:
            continue
        out.append(pos)
        line_end = text.find("\n", pos)
        if line_end == -1:
            line_end = len(text)
    return out


_BLOCK_HEADER = re.compile(r"[|>]([1-9+-]{0,2})")


def _content_span(text: str, start: int, end: int, style) -> tuple[int, int]:
    """The part of a scalar's source that is its content: a block scalar's
    starts on the line after its header and, unless it keeps trailing line
    breaks (``|+``), ends after its last non-blank line."""
    if style not in ("|", ">"):
        return start, end
    nl = text.find("\n", start, end)
    if nl == -1:
        return end, end
    header = _BLOCK_HEADER.search(text, start, nl)
    if header and "+" in header.group(1):
        return nl + 1, end
    last = end
    while last > nl and text[last - 1] in " \t\n":
        last -= 1
    stop = text.find("\n", last, end)
    return nl + 1, max(nl + 1, end if stop == -1 else stop + 1)


def _comment_texts(text: str, doc) -> list[str]:
    """Every comment of a parsed document, as written (trailing spaces dropped)."""
    spans = []
    seen = set()
    stack = [doc.root]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, Scalar):
            if node.end > node.start:
                spans.append(_content_span(text, node.start, node.end, node.style))
        elif isinstance(node, Mapping):
            for k, v in node.pairs:
                stack.append(k)
                stack.append(v)
        elif isinstance(node, Sequence):
            stack.extend(node.items)
    spans.sort()
    out = []
    for pos in _find_comments(text, spans):
        eol = text.find("\n", pos)
        out.append(text[pos : len(text) if eol == -1 else eol].rstrip())
    return out


# --------------------------------------------------------------------------- skeleton
_RESOLVER = yaml.resolver.Resolver()
_STR = "tag:yaml.org,2002:str"


@lru_cache(maxsize=4096)
def _plain_tag(value: str) -> str:
    """The tag PyYAML (Flux) gives a plain scalar: YAML 1.1 rules."""
    return _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))


class _Entry:
    """One map entry (key and value) or sequence item, where it sits in the text."""

    __slots__ = ("path", "col", "start", "last", "parent", "in_flow")

    def __init__(self, path, col, start, parent, in_flow):
        self.path = path
        self.col = col  # column of the key, or of an item's dash
        self.start = start  # offset of the key, or of an item's dash
        self.last = start  # offset of the last character of the entry
        self.parent = parent
        self.in_flow = in_flow  # inside a flow collection


class _Frame:
    __slots__ = ("is_map", "flow", "owner", "start", "expect_key", "count", "pair")

    def __init__(self, is_map, flow, owner, start):
        self.is_map = is_map
        self.flow = flow
        self.owner = owner
        self.start = start
        self.expect_key = True
        self.count = 0
        self.pair = None


class _Skeleton:
    """The syntactic layout of a YAML text from libyaml's events: entries with
    their positions, identified by path (key identity or item index), the end
    of every key and value token, flow collections and scalar spans."""

    def __init__(self, text: str):
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.root = _Entry((), 0, 0, None, False)
        self.entries: list[_Entry] = []  # in text order, root excluded
        self.by_path: dict = {(): self.root}
        self.tokens: list = []  # (end, start, path, role)
        self.token_end: dict = {}  # (path, role) -> end offset
        self.flows: list = []  # (start, end, owner entry)
        self.scalars: list = []  # (start, end, style, event, is_key)
        self.anchors = False  # anchors, aliases or merge keys in use
        self.explicit_start = False
        self._walk()
        for e in reversed(self.entries):
            if e.parent is not None and e.last > e.parent.last:
                e.parent.last = e.last

    def line_of(self, offset: int) -> int:
        return bisect_right(self.line_starts, offset) - 1

    def col_of(self, offset: int) -> int:
        return offset - self.line_starts[self.line_of(offset)]

    def _entry(self, path, start, parent, in_flow):
        e = _Entry(path, self.col_of(start), start, parent, in_flow)
        self.entries.append(e)
        self.by_path[path] = e
        return e

    def _token(self, end, start, entry, role):
        self.tokens.append((end, start, entry.path, role))
        self.token_end[(entry.path, role)] = end
        if end > start and end - 1 > entry.last:
            entry.last = end - 1

    def _dash(self, start: int) -> int:
        """The offset of the '-' that introduces a block sequence item."""
        text = self.text
        i = start
        while i > 0 and text[i - 1] in " \t\n":
            i -= 1
        return i - 1 if i > 0 and text[i - 1] == "-" else start

    def _walk(self):
        loader = _Loader(self.text)
        try:
            stack: list[_Frame] = []
            while loader.check_event():
                ev = loader.get_event()
                cls = type(ev)
                if (
                    cls is ScalarEvent
                    or cls is AliasEvent
                    or cls is MappingStartEvent
                    or cls is SequenceStartEvent
                ):
                    start, end = ev.start_mark.index, ev.end_mark.index
                    if cls is not AliasEvent and ev.anchor is not None:
                        self.anchors = True
                    if not stack:
                        owner = self.root
                    else:
                        f = stack[-1]
                        if f.is_map and f.expect_key:
                            if cls is not ScalarEvent:
                                raise FormatError(
                                    "not formatted: a mapping key must be a plain "
                                    "value, not a list, mapping or alias",
                                    start,
                                    max(end, start + 1),
                                )
                            ident = _key_ident(ev)
                            if ident[0] == "tag:yaml.org,2002:merge":
                                self.anchors = True
                            e = self._entry(f.owner.path + (ident,), start, f.owner, f.flow)
                            f.pair = e
                            f.expect_key = False
                            self._token(end, start, e, "key")
                            self.scalars.append((start, end, ev.style or None, ev, True))
                            continue
                        if f.is_map:
                            owner = f.pair
                            f.expect_key = True
                        else:
                            at = start if f.flow else self._dash(start)
                            owner = self._entry(f.owner.path + (f.count,), at, f.owner, f.flow)
                            f.count += 1
                    if cls is ScalarEvent:
                        self._token(end, start, owner, "value")
                        self.scalars.append((start, end, ev.style or None, ev, False))
                    elif cls is AliasEvent:
                        self.anchors = True
                        self._token(end, start, owner, "value")
                    else:
                        stack.append(
                            _Frame(cls is MappingStartEvent, bool(ev.flow_style), owner, start)
                        )
                elif cls is MappingEndEvent or cls is SequenceEndEvent:
                    f = stack.pop()
                    if f.flow:
                        end = ev.end_mark.index
                        self._token(end, f.start, f.owner, "value")
                        self.flows.append((f.start, end, f.owner))
                elif cls is DocumentStartEvent:
                    self.explicit_start = self.explicit_start or bool(ev.explicit)
        finally:
            loader.dispose()


def _key_ident(ev) -> tuple:
    """What identifies a key on both sides of formatting: its tag and content."""
    if ev.tag not in (None, "!"):
        return (ev.tag, ev.value)
    if ev.implicit[0]:
        return (_plain_tag(ev.value), ev.value)
    return (_STR, ev.value)


def _keep_verbatim(ev, is_key: bool) -> bool:
    """Whether a single-line scalar goes past ruamel as a placeholder: every value,
    and the keys that are not plain strings to both YAML 1.1 and 1.2."""
    if not is_key:
        return True
    if ev.tag not in (None, "!"):
        return True
    if not ev.implicit[0]:
        return False
    if _plain_tag(ev.value) != _STR:
        return True
    return yaml12_value(ev.value) != ev.value


def _properties_end(text: str, start: int, end: int):
    """Where a scalar's text starts after its properties (``&anchor``, ``!tag``);
    None when a tag comes before an anchor (then the scalar is left to ruamel)."""
    i = start
    seen_tag = False
    first_tag = None
    while i < end and text[i] in "&!":
        if text[i] == "&":
            if seen_tag:
                return None
        else:
            seen_tag = True
            if first_tag is None:
                first_tag = i
        while i < end and text[i] not in " \t\n":
            i += 1
        while i < end and text[i] in " \t":
            i += 1
    return first_tag if first_tag is not None else i


# --------------------------------------------------------------------------- YAML
class _Group:
    """Full-line comments and blank lines between two pieces of content."""

    __slots__ = ("lines", "start", "end")

    def __init__(self, start):
        self.lines = []  # (col, text) for a comment, None for a blank line
        self.start = start
        self.end = start


class _YamlFormatter:
    """Formats one YAML text: see the module docstring for the steps."""

    def __init__(self, text: str, options: FormatOptions):
        self.text = text
        self.options = options
        self._starts: list | None = None  # input entry starts

    # ---------------------------------------------------------------- driver
    def run(self) -> str:
        sk = self.src = _Skeleton(self.text)
        if not sk.entries:  # a lone scalar: nothing to lay out
            return self.text if self.text.endswith("\n") else self.text + "\n"
        self._comments()
        ruamel_text = self._ruamel_input()
        y = _ruamel_yaml()
        y.explicit_start = sk.explicit_start or None
        try:
            data = y.load(ruamel_text)
        except Exception as exc:  # noqa: BLE001 - ruamel refuses something libyaml accepted
            raise self._ruamel_error(exc) from None
        self.data = data
        self._key_maps: dict = {}
        if sk.anchors:
            _keep_anchors(data)
        elif self.options.sort_keys:
            _sort(data)
        for path in self.force_block:
            node = self._ruamel_node(path)
            if node is not None:
                node.fa.set_block_style()
        for _ in range(300):  # each round settles at least one level of nesting
            out = self._dump(y, data)
            dst = _Skeleton(out)
            long = self._too_long(dst)
            if not long:
                break
            for owner in long:
                node = self._ruamel_node(owner.path)
                if node is None:
                    raise FormatError(
                        "not formatted: a long flow collection could not be "
                        "broken into lines (please report this file)"
                    )
                node.fa.set_block_style()
        return self._assemble(out, dst)

    def _dump(self, y, data) -> str:
        import io

        buf = io.StringIO()
        y.dump(data, buf)
        out = buf.getvalue()
        if self.kept:
            kept = self.kept
            out = self.placeholder.sub(lambda m: kept[int(m.group(1))], out)
        if isinstance(data, list) and hasattr(data, "fa") and not data.fa.flow_style():
            out = _dedent_root_sequence(out)
        return out

    def _ruamel_error(self, exc) -> FormatError:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        start = 0
        if mark is not None and 0 <= mark.line < len(self.line_map):
            line = self.line_map[mark.line]
            start = min(self.src.line_starts[line] + max(mark.column, 0), len(self.text))
        return FormatError(
            f"not formatted: ruamel.yaml, which lays out the file, cannot read "
            f"it ({problem}); Flux can, so the file is left as it is",
            start,
            min(start + 1, len(self.text)),
        )

    # ---------------------------------------------------------------- comments in
    def _comments(self):
        """Find every comment and blank line and decide what it belongs to."""
        text, sk = self.text, self.src
        spans = sorted(
            _content_span(text, start, end, style)
            for start, end, style, _ev, _key in sk.scalars
            if end > start
        )
        self.spans = spans
        comments = _find_comments(text, spans)
        self.comment_at = {}
        self.force_block = []
        eol = {}  # line -> comment offset, for comments after content
        lonely = set()  # lines holding only a comment
        starts = sk.line_starts
        for pos in comments:
            line = sk.line_of(pos)
            if text[starts[line] : pos].strip():
                eol[line] = pos
            else:
                lonely.add(line)
        # flow collections with a comment inside are written block
        if comments and sk.flows:
            for fstart, fend, owner in sk.flows:
                i = bisect_left(comments, fstart)
                if i < len(comments) and comments[i] < fend:
                    self.force_block.append(owner.path)
        self.eol_notes = []  # (path, role, column, gap, text)
        self.groups = []
        self.removed_lines = set()
        in_scalar = self._in_scalar
        group = None
        nlines = len(starts)
        for line in range(nlines):
            ls = starts[line]
            le = starts[line + 1] - 1 if line + 1 < nlines else len(text)
            body = text[ls:le]
            if line in lonely or (not body.strip() and not in_scalar(ls)):
                if line == nlines - 1 and not body.strip():
                    break  # the text after the final newline
                if group is None:
                    group = _Group(ls)
                    self.groups.append(group)
                if line in lonely:
                    col = len(body) - len(body.lstrip())
                    group.lines.append((col, body.strip()))
                else:
                    group.lines.append(None)
                group.end = le + 1
                self.removed_lines.add(line)
                continue
            group = None
            pos = eol.get(line)
            if pos is None:
                continue
            note = text[pos:le].rstrip()
            anchor = self._eol_anchor(pos, ls)
            if anchor is None:  # nothing on the line it could follow: a line of its own
                g = _Group(le + 1)
                g.lines.append((len(body) - len(body.lstrip()), note))
                g.end = le + 1
                self.groups.append(g)
            else:
                gap = len(text[ls:pos]) - len(text[ls:pos].rstrip())
                # inside a flow collection (which becomes block) the column means nothing
                col = 0 if self._flow_at(pos) is not None else pos - ls
                self.eol_notes.append((anchor[0], anchor[1], col, gap, note))
            self.comment_at[line] = pos

    def _in_scalar(self, offset: int) -> bool:
        i = bisect_right(self.spans, (offset, float("inf"))) - 1
        return i >= 0 and self.spans[i][0] <= offset < self.spans[i][1]

    def _eol_anchor(self, pos: int, line_start: int):
        """The (path, role) of the last key or value token ending on the line
        before the comment at ``pos``."""
        best = None
        tokens, ends = self._token_index
        i = bisect_right(ends, pos) - 1
        while i >= 0:
            end, start, path, role = tokens[i]
            if end <= line_start:
                break
            if end > start and end - 1 >= line_start:
                best = (path, role)
                break
            i -= 1
        return best

    # ---------------------------------------------------------------- ruamel input
    def _ruamel_input(self) -> str:
        """The text ruamel reads: no comments, no blank lines outside scalars, and
        scalars that must keep their spelling replaced by placeholders."""
        text, sk = self.text, self.src
        prefix = "jsfmtkeep"
        while prefix in text:
            prefix += "x"
        self.placeholder = re.compile(re.escape(prefix) + r"(\d+)q")
        self.kept: list[str] = []
        self.key_idents: dict = {}
        edits = []  # (start, end, replacement)
        for start, end, style, ev, is_key in sk.scalars:
            if end <= start or style in ("|", ">") or "\n" in text[start:end]:
                continue
            if not _keep_verbatim(ev, is_key):
                continue
            at = _properties_end(text, start, end)
            if at is None or at >= end:
                continue
            name = f"{prefix}{len(self.kept)}q"
            self.kept.append(text[at:end])
            if is_key:
                self.key_idents[name] = _key_ident(ev)
            edits.append((at, end, name))
        starts = sk.line_starts
        nlines = len(starts)
        for line, pos in self.comment_at.items():
            ls = starts[line]
            cut = pos
            while cut > ls and text[cut - 1] in " \t":
                cut -= 1
            le = starts[line + 1] - 1 if line + 1 < nlines else len(text)
            edits.append((cut, le, ""))
        for line in self.removed_lines:
            le = starts[line + 1] if line + 1 < nlines else len(text)
            edits.append((starts[line], le, ""))
        edits.sort()
        parts = []
        last = 0
        for start, end, repl in edits:
            parts.append(text[last:start])
            parts.append(repl)
            last = end
        parts.append(text[last:])
        out = "".join(parts)
        # line numbers of the ruamel text -> lines of the original, for error positions
        self.line_map = [i for i in range(nlines) if i not in self.removed_lines]
        return out

    def _ruamel_node(self, path):
        """The ruamel collection that is the value at ``path``."""
        node = self.data
        for comp in path:
            try:
                if isinstance(comp, int):
                    node = node[comp]
                else:
                    keys = self._key_maps.get(id(node))
                    if keys is None:
                        keys = {}
                        for k in node:
                            if isinstance(k, str):
                                keys[self.key_idents.get(k, (_STR, str(k)))] = k
                        self._key_maps[id(node)] = keys
                    node = node[keys[comp]]
            except (KeyError, IndexError, TypeError):
                return None
        return node if hasattr(node, "fa") else None

    def _too_long(self, dst: _Skeleton):
        """Flow collections in block context that do not fit on their line, with
        the flow collections inside them that cannot fit once they are block
        (each level of nesting indents by at least two)."""
        width = self.options.line_length
        out = []
        text = dst.text
        flows = sorted(dst.flows, key=lambda f: f[0])
        starts = [f[0] for f in flows]
        for start, end, owner in flows:
            if owner.in_flow or end - start <= 2:
                continue
            first, last = dst.line_of(start), dst.line_of(end - 1)
            line_end = text.find("\n", start)
            line_end = len(text) if line_end == -1 else line_end
            if first == last and line_end - dst.line_starts[first] <= width:
                continue
            out.append(owner)
            col, depth = owner.col, len(owner.path)
            for s, e, inner in flows[bisect_right(starts, start) : bisect_left(starts, end)]:
                if e - s > 2 and col + 2 * (len(inner.path) - depth) + (e - s) > width:
                    out.append(inner)
        return out

    # ---------------------------------------------------------------- comments out
    def _assemble(self, out: str, dst: _Skeleton) -> str:
        lines = out.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        before: dict[int, list] = {}
        after: dict[int, list] = {}
        eol: dict[int, list] = {}
        top: list = []  # comments above `---`
        header: list = []  # comments that head the document, below `---`
        missing = []
        end_marker = lines.pop() if lines and lines[-1] == "..." else None
        n = len(lines)
        body = 0
        while body < n and (lines[body] == "---" or lines[body].startswith("%")):
            body += 1

        def out_entry(path):
            e = dst.by_path.get(path)
            if e is None:
                missing.append(path)
            return e

        for path, role, col, gap, note in self.eol_notes:
            end = dst.token_end.get((path, role))
            if end is not None and end > 0:
                line = dst.line_of(end - 1)
            else:  # a flow collection now written block: the line the entry starts,
                e = out_entry(path)  # as far from the content as it was
                if e is None:
                    continue
                line = dst.line_of(e.start)
                col = 0
            if col == 0:
                gap = max(gap, 1)
            eol.setdefault(line, []).append((col, gap, note))
        order = 0
        for group in self.groups:
            for kind, target, glines in self._place(group):
                order += 1
                if kind in ("top", "header"):
                    (top if kind == "top" else header).extend(
                        None if g is None else g[1] for g in glines
                    )
                elif kind == "before":
                    e = out_entry(target.path)
                    if e is None:
                        continue
                    line = dst.line_of(e.start)
                    col = len(lines[line]) - len(lines[line].lstrip()) if line < n else 0
                    before.setdefault(line, []).extend(
                        None if g is None else " " * col + g[1] for g in glines
                    )
                else:
                    e = out_entry(target.path)
                    if e is None:
                        continue
                    line = min(dst.line_of(e.last), n - 1) if target.path else n - 1
                    col = dst.col_of(e.start) if target.path else 0
                    depth = len(target.path)
                    after.setdefault(line, []).append(
                        (-depth, order, [None if g is None else " " * col + g[1] for g in glines])
                    )
        if missing:
            raise FormatError(
                "not formatted: a comment could not be kept in place (please report this file)"
            )
        protected, keep_ends = self._protected_lines(dst)
        result: list = []  # (text, or None for a blank line; whether a blank may follow)

        def emit(s, blank_ok=True):
            if s is None:  # one blank line at most, never one a `|+` scalar would take in
                if result and result[-1][0] is not None and result[-1][1]:
                    result.append((None, True))
            else:
                result.append((s, blank_ok))

        for s in top:
            emit(s)
        for i, text_line in enumerate(lines):
            if i == body:
                for s in header:
                    emit(s)
            for s in before.get(i, ()):
                emit(s)
            free = i not in protected
            if i in eol:
                notes = eol[i]
                col, gap, note = notes[0]
                text_line = text_line.rstrip()
                text_line += " " * (gap if col == 0 else max(col - len(text_line), 1)) + note
                for _c, _g, extra in notes[1:]:  # several comments for one line: below it
                    after.setdefault(i, []).insert(
                        0, (-(10**6), 0, [" " * (len(text_line) - len(text_line.lstrip())) + extra])
                    )
            if free and not text_line.strip():
                emit(None)
            else:
                emit(text_line.rstrip() if free else text_line, i not in keep_ends)
            for _d, _o, glines in sorted(after.get(i, ()), key=lambda t: (t[0], t[1])):
                for s in glines:
                    emit(s)
        while result and result[0][0] is None:
            result.pop(0)
        while result and result[-1][0] is None:
            result.pop()
        if end_marker:
            result.append((end_marker, False))
        return "\n".join("" if s is None else s for s, _ in result) + "\n"

    def _protected_lines(self, dst: _Skeleton):
        """Lines of the output inside a scalar that spans lines (left as they are),
        and the last lines of block scalars that keep trailing line breaks."""
        out: set[int] = set()
        keep_ends: set[int] = set()
        text = dst.text
        for start, end, style, _ev, _key in dst.scalars:
            if end <= start:
                continue
            cs, ce = _content_span(text, start, end, style)
            if ce <= cs:
                continue
            first, last = dst.line_of(cs), dst.line_of(ce - 1)
            if last > first or style in ("|", ">"):
                out.update(range(first, last + 1))
                header = _BLOCK_HEADER.search(text, start, end)
                if header and "+" in header.group(1):
                    keep_ends.add(last)
        return out, keep_ends

    def _place(self, group: _Group):
        """Split a group into what goes after the block it closes and what goes
        before the entry that follows; yields (kind, entry, lines)."""
        sk = self.src
        entries = sk.entries
        if self._starts is None:
            self._starts = [e.start for e in entries]
        starts = self._starts
        i = bisect_left(starts, group.end)
        nxt = entries[i] if i < len(entries) else None
        j = bisect_left(starts, group.start) - 1
        prev = entries[j] if j >= 0 else None
        lines = group.lines
        # inside a flow collection: before the next entry in it, or after its last one
        flow = self._flow_at(group.start)
        if flow is not None:
            fstart, fend, owner = flow
            if nxt is not None and nxt.start < fend:
                yield "before", nxt, lines
            else:
                target = prev if prev is not None and prev.start > fstart else owner
                yield "after", target, lines
            return
        if prev is None:
            # above the first entry: what is separated from it by a blank line, or
            # sits above `---`, heads the file; the rest belongs to the entry
            if nxt is None:
                yield "after", sk.root, lines
                return
            first = self._first_content()
            if group.end <= first < sk.line_starts[sk.line_of(nxt.start)]:
                yield "top", None, lines  # above `---` or a directive
                return
            cut = max((i + 1 for i, g in enumerate(lines) if g is None), default=0)
            if cut:
                yield "header", None, lines[:cut]
            if lines[cut:]:
                yield "before", nxt, lines[cut:]
            return
        limit = nxt.col if nxt is not None else 0
        # comments indented deeper than what follows close the block above them
        k = 0
        for idx, g in enumerate(lines):
            if g is None:
                continue
            if g[0] > limit:
                k = idx + 1
            else:
                break
        if k:
            chunk, target = [], None
            for g in lines[:k]:
                if g is not None:
                    t = self._closing(prev, g[0])
                    if target is not None and t is not target and chunk:
                        yield "after", target, chunk
                        chunk = []
                    target = t
                chunk.append(g)
            if chunk:
                yield "after", target, chunk
        rest = lines[k:]
        if rest:
            if nxt is not None:
                yield "before", nxt, rest
            else:
                yield "after", sk.root, rest

    def _first_content(self) -> int:
        """Offset of the first line that is neither blank nor a comment."""
        text = self.text
        for line, ls in enumerate(self.src.line_starts):
            if line not in self.removed_lines and ls < len(text):
                return ls
        return len(text)

    def _closing(self, prev: _Entry, col: int) -> _Entry:
        """The deepest entry around ``prev`` (in block context) whose column is at
        or left of ``col``: the block a comment indented to ``col`` closes."""
        e = prev
        while e is not None:
            if not e.in_flow and e.path and e.col <= col:
                return e
            e = e.parent
        return self.src.root

    @functools.cached_property
    def _token_index(self) -> tuple[list, list[int]]:
        """Input tokens sorted by end, and their ends."""
        tokens = sorted(self.src.tokens, key=lambda t: (t[0], -t[1]))
        return tokens, [t[0] for t in tokens]

    @functools.cached_property
    def _flow_index(self) -> tuple[list, list[int], list[int]]:
        """Input flow collections by start, their starts, and the furthest end so far."""
        flows = sorted(self.src.flows, key=lambda f: f[0])
        reach, top = [], -1
        for f in flows:
            top = max(top, f[1])
            reach.append(top)
        return flows, [f[0] for f in flows], reach

    def _flow_at(self, offset: int):
        """The innermost flow collection around ``offset``, or None."""
        flows, starts, reach = self._flow_index
        i = bisect_left(starts, offset) - 1
        while i >= 0 and reach[i] > offset:
            f = flows[i]
            if f[1] > offset:
                return f
            i -= 1
        return None


def _ruamel_yaml():
    from ruamel.yaml import YAML

    y = YAML(typ="rt")
    y.indent(mapping=2, sequence=4, offset=2)
    y.width = 1 << 20  # never wrap: the flow rule decides where lines break
    y.preserve_quotes = True
    return y


def _sort(data) -> None:
    """Canonical key order for the mappings the RFCs define, unknown keys last."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    stack: list[tuple[tuple, object]] = [((), data)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, CommentedMap):
            order = ORDER.get(kind_of(path) or "")
            if order:
                known = [k for k in order if k in node]
                rest = [k for k in node if k not in order]
                if list(node.keys()) != known + rest:
                    for k in known + rest:
                        node.move_to_end(k)
            stack.extend((path + (k,), v) for k, v in node.items())
        elif isinstance(node, CommentedSeq):
            stack.extend((path + (i,), v) for i, v in enumerate(node))


def _keep_anchors(data) -> None:
    """Write every anchor as it was, also one no alias refers to."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    stack, seen = [data], set()
    while stack:
        node = stack.pop()
        if not isinstance(node, (CommentedMap, CommentedSeq)) or id(node) in seen:
            continue
        seen.add(id(node))
        anchor = node.anchor.value if hasattr(node, "anchor") else None
        if anchor:
            node.yaml_set_anchor(anchor, always_dump=True)
        stack.extend(node.values() if isinstance(node, CommentedMap) else node)


def _dedent_root_sequence(out: str) -> str:
    """ruamel indents a top-level block sequence by two; take that back."""
    lines = out.split("\n")
    if all(not line or line.startswith("  ") or line.startswith("---") for line in lines):
        return "\n".join(line[2:] if line.startswith("  ") else line for line in lines)
    return out


# --------------------------------------------------------------------------- JSON
class _Number(str):
    """A JSON number, kept exactly as written."""


def _format_json(text: str, options: FormatOptions) -> str:
    data = json.loads(text, parse_int=_Number, parse_float=_Number, parse_constant=_Number)
    out: list[str] = []
    _emit_json(data, (), 0, options.sort_keys, out)
    return "".join(out) + "\n"


def _emit_json(value, path, level, sort, out) -> None:
    if isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        keys = list(value)
        if sort:
            order = ORDER.get(kind_of(path) or "")
            if order:
                keys = [k for k in order if k in value] + [k for k in keys if k not in order]
        pad = "  " * (level + 1)
        out.append("{\n")
        for i, k in enumerate(keys):
            out.append(pad + json.dumps(k, ensure_ascii=False) + ": ")
            _emit_json(value[k], path + (k,), level + 1, sort, out)
            out.append(",\n" if i < len(keys) - 1 else "\n")
        out.append("  " * level + "}")
    elif isinstance(value, list):
        if not value:
            out.append("[]")
            return
        pad = "  " * (level + 1)
        out.append("[\n")
        for i, v in enumerate(value):
            out.append(pad)
            _emit_json(v, path + (i,), level + 1, sort, out)
            out.append(",\n" if i < len(value) - 1 else "\n")
        out.append("  " * level + "]")
    elif isinstance(value, _Number):
        out.append(str(value))
    elif isinstance(value, str):
        out.append(json.dumps(value, ensure_ascii=False))
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    else:
        out.append("null")


__all__ = ["FormatError", "FormatOptions", "format_text", "load_options"]
