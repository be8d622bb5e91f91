"""`jobspec fmt`: one style for jobspec files, without losing a comment or
changing what Flux reads.

YAML is laid out by :mod:`jobspec_lsp.fmt.layout`, a printer over libyaml's events
that copies every scalar from the source (so no value is ever re-spelt, and
YAML 1.1 readings such as ``yes``, ``0755`` or ``1:30`` stay what they are) and
gives every comment and blank line to the entry it belongs to.

**Every result is checked**: the output is parsed again with the YAML 1.1 reader
`jobspec check` uses, and must give the same data Flux reads (types included)
and hold every comment of the input.  When a check fails, the next, more
careful layout is tried (``LAYOUTS``: canonical key order, then the keys as
written, then only whitespace made tidy, then the text as it is), so a file
Flux can read is never refused; :func:`format_result` says which one was used.
Only text Flux cannot read (it does not parse, holds several documents, an
unsafe tag or an alias bomb) raises :class:`FormatError`.

JSON jobspecs are formatted as JSON.  See docs/formatting.md for the style.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass

from jobspec_lsp.config import find_section
from jobspec_lsp.fmt import layout as _layout
from jobspec_lsp.fmt.printer import ORDER
from jobspec_lsp.fmt.tree import BLOCK_HEADER, HASH
from jobspec_lsp.jobspec.context import kind_of
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.jobspec.tree import Mapping, Scalar, Sequence, to_python
from jobspec_lsp.text.pauses import no_gc_pauses

__all__ = ["ORDER", "FormatError", "FormatOptions", "FormatResult", "format_result", "format_text"]

DEFAULT_LINE_LENGTH = 80
# Parser problems that mean Flux cannot read the file anyway: several documents,
# unsupported tags, alias bombs.
_REFUSE = ("JS903", "JS906", "JS907")


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
# the layouts tried in turn until one keeps the data and the comments
LAYOUTS = ("canonical", "as-written", "whitespace", "unchanged")


@dataclass(frozen=True)
class FormatResult:
    text: str
    layout: str  # which of LAYOUTS gave it ("canonical" for JSON)
    why: str = ""  # what made the layouts before it fail


def format_text(text: str, language: str = "yaml", options: FormatOptions | None = None) -> str:
    """The formatted text (``text`` itself when it is already formatted).

    Raises :class:`FormatError` only for text Flux cannot read: it does not parse,
    holds several documents, an unsafe tag or an alias bomb."""
    return format_result(text, language, options).text


def format_result(
    text: str, language: str = "yaml", options: FormatOptions | None = None
) -> FormatResult:
    """:func:`format_text`, saying which layout was used and why the others were not."""
    if len(text) < 50_000:
        return _format_result(text, language, options)
    # the layout's syntax tree and the readings that check it: many objects kept until
    # the end, which the collector would scan again and again (issue 26)
    with no_gc_pauses():
        return _format_result(text, language, options)


def _format_result(text: str, language: str, options: FormatOptions | None) -> FormatResult:
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
                f"not formatted, Flux cannot read it: {p.message}",
                p.start + len(bom),
                p.end + len(bom),
            )
    nl = body.find("\n")
    crlf = nl > 0 and body[nl - 1] == "\r"
    work = body.replace("\r\n", "\n") if "\r\n" in body else body
    lang = "json" if language == "json" else "yaml"
    if lang == "json":
        dup = next((p for p in doc.problems if p.code == "JS902"), None)
        if dup is not None:  # the JSON layout keeps one value per key
            raise FormatError(
                f"not formatted: {dup.message}; say which value you mean first",
                dup.start + len(bom),
                dup.end + len(bom),
            )
        try:
            out = _format_json(work, options)
        except (ValueError, RecursionError) as exc:
            raise FormatError(f"cannot format: {exc}") from None
        used, why = "canonical", ""
        after = parse(out, lang)
        if after.root is None or not _same(to_python(after.root), to_python(doc.root)):
            out, used, why = work, "unchanged", "the JSON layout would change the data"
    else:
        try:
            out, used, why = _format_yaml(work, doc if work is body else parse(work), options)
        except FormatError as err:  # positions in ``work`` -> positions in ``text``
            if work is not body:
                collapsed = [m.start() - i for i, m in enumerate(re.finditer("\r\n", body))]
                err.start += bisect_right(collapsed, err.start - 1)
                err.end += bisect_right(collapsed, err.end - 1)
            err.start += len(bom)
            err.end += len(bom)
            raise
    if crlf:
        out = out.replace("\n", "\r\n")
    return FormatResult(bom + out, used, why)


def _format_yaml(work: str, doc, options: FormatOptions) -> tuple[str, str, str]:
    want = to_python(doc.root)
    try:
        tree = _layout.Tree(work)
    except _layout.Unformattable as exc:
        if exc.unreadable:
            raise FormatError(
                f"not formatted, Flux cannot read it: {exc.message}", exc.start, exc.end
            ) from None
        tree = None
    spans = tree.scalars if tree is not None else sorted(_scalar_spans(work, doc))
    exact = tree is None or any(p.code == "JS902" for p in doc.problems)
    comments = sorted(
        _layout.comment_texts(tree) if tree is not None else _comment_texts(work, doc)
    )
    reasons: list[str] = []
    for name in LAYOUTS:
        if name == "canonical" and not options.sort_keys:
            continue
        if name == "unchanged":
            return work, name, "; ".join(reasons)
        try:
            if name == "whitespace":
                out = _tidy_whitespace(work, spans)
            elif tree is None:
                reasons.append(f"{name}: the text could not be read as a tree")
                continue
            else:
                out = _layout.layout(tree, options.line_length, name == "canonical")
        except _layout.Unformattable as exc:
            reasons.append(f"{name}: {exc.message}")
            continue
        except RecursionError:
            reasons.append(f"{name}: nested too deeply")
            continue
        after = parse(out, "yaml")
        if after.root is None or not _same(to_python(after.root), want):
            reasons.append(f"{name}: the data would change")
            continue
        if exact:  # the syntax tree sees every scalar, the first of two duplicates too
            try:
                kept = sorted(_layout.comment_texts(out))
            except _layout.Unformattable:
                kept = []
        else:  # the reader's positions suffice: the output has no props apart from values
            kept = sorted(_comment_texts(out, after))
        if kept != comments:
            reasons.append(f"{name}: a comment would be lost")
            continue
        return out, name, "; ".join(reasons)
    raise AssertionError("unreachable")


def _tidy_whitespace(text: str, spans) -> str:
    """The text with trailing white space dropped outside scalars (``spans``: their
    sorted content spans), runs of blank lines made one, and one final newline:
    the last layout before none."""
    starts = [s for s, _ in spans]
    out: list[str] = []
    blank = False
    pos = 0
    for raw in text.split("\n"):
        end = pos + len(raw)
        i = bisect_right(starts, end) - 1
        in_scalar = i >= 0 and spans[i][0] <= end < spans[i][1]
        line = raw if in_scalar else raw.rstrip(" \t")
        if not line and not in_scalar:
            blank = bool(out)
        else:
            if blank:
                out.append("")
            blank = False
            out.append(line)
        pos = end + 1
    return "\n".join(out) + "\n"


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
def _find_comments(text: str, spans) -> list[int]:
    """Offsets of the ``#`` of every comment: a ``#`` at a line start or after
    white space that is not inside a scalar's content (``spans``: sorted
    ``(content_start, content_end)`` pairs)."""
    starts = [s for s, _ in spans]
    out = []
    line_end = -1
    for m in HASH.finditer(text):
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


def _content_span(text: str, start: int, end: int, style) -> tuple[int, int]:
    """The part of a scalar's source that is its content: a block scalar's
    starts on the line after its header and, unless it keeps trailing line
    breaks (``|+``), ends after its last non-blank line."""
    if style not in ("|", ">"):
        return start, end
    nl = text.find("\n", start, end)
    if nl == -1:
        return end, end
    header = BLOCK_HEADER.search(text, start, nl)
    if header and "+" in header.group(1):
        return nl + 1, end
    last = end
    while last > nl and text[last - 1] in " \t\n":
        last -= 1
    stop = text.find("\n", last, end)
    return nl + 1, max(nl + 1, end if stop == -1 else stop + 1)


def _scalar_spans(text: str, doc) -> list[tuple[int, int]]:
    """The content spans of every scalar of a parsed document."""
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
    return spans


def _comment_texts(text: str, doc) -> list[str]:
    """Every comment of a parsed document, as written (trailing spaces dropped)."""
    spans = sorted(_scalar_spans(text, doc))
    out = []
    for pos in _find_comments(text, spans):
        eol = text.find("\n", pos)
        out.append(text[pos : len(text) if eol == -1 else eol].rstrip())
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
