"""`jobspec fmt`: one style for jobspec files, without losing a comment or
changing what Flux reads.

YAML goes through ruamel.yaml's round-trip mode (comments, anchors, flow or
block style and scalar spelling are kept).  Three guarantees are checked on
every run, not assumed:

- meaning: the data Flux reads (YAML 1.1, :func:`jobspec_lsp.document.to_python`)
  is identical before and after, or the file is refused;
- comments: every comment of the input is in the output, or the file is refused;
- idempotence: formatting the output again changes nothing.

Plain scalars that YAML 1.1 (Flux) and YAML 1.2 (ruamel) read differently —
`yes`, `0755`, `1:30`, `2024-01-31` — are swapped for placeholders before
ruamel sees them and put back verbatim afterwards, so their text never changes.
JSON jobspecs are formatted as JSON.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

from .context import kind_of
from .document import parse, to_python

ORDER = {
    "root": ("version", "resources", "tasks", "attributes"),
    "vertex": ("type", "count", "unit", "label", "exclusive", "id", "with"),
    "task": ("command", "slot", "count", "distribution", "attributes"),
    "count": ("min", "max", "operator", "operand"),
    "task.count": ("per_slot", "per_resource", "total"),
    "task.count.per_resource": ("type", "count"),
    "attributes": ("system", "user"),
    "dependency": ("scheme", "value", "type", "scope"),
}


class FormatError(Exception):
    def __init__(self, message: str, start: int = 0, end: int = 0):
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end


@dataclass
class FormatOptions:
    sort_keys: bool = True


def load_options(path) -> FormatOptions:
    """[tool.jobspec] from the nearest pyproject.toml at or above ``path``."""
    opts = FormatOptions()
    try:
        import tomllib
    except ImportError:  # Python 3.10
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ImportError:
            return opts
    p = Path(path).resolve()
    for folder in [p] + list(p.parents) if p.is_dir() else list(p.parents):
        cfg = folder / "pyproject.toml"
        if cfg.is_file():
            try:
                data = tomllib.loads(cfg.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return opts
            section = data.get("tool", {}).get("jobspec", {})
            fmt = section.get("format", section)
            if isinstance(fmt.get("sort-keys"), bool):
                opts.sort_keys = fmt["sort-keys"]
            return opts
    return opts


def format_text(text: str, language: str = "yaml", options: FormatOptions | None = None) -> str:
    options = options or FormatOptions()
    doc = parse(text, language)
    if doc.root is None:
        first = doc.problems[0] if doc.problems else None
        msg = first.message if first else "the file holds no jobspec"
        raise FormatError(f"cannot format: {msg}", first.start if first else 0,
                          first.end if first else 0)
    blocking = [p for p in doc.problems if p.code in ("JS902", "JS903", "JS906", "JS907")]
    if blocking:
        b = blocking[0]
        raise FormatError(f"not formatted, it would lose data: {b.message}", b.start, b.end)
    if language == "json":
        return _format_json(text, doc, options)
    out = _format_yaml(text, doc, options)
    if to_python(parse(out).root) != to_python(doc.root):
        raise FormatError("not formatted: the result would change what Flux reads "
                          "(please report this file)")
    if _comments(out) != _comments(text):
        raise FormatError("not formatted: a comment could not be kept in place")
    return out


# --------------------------------------------------------------------------- YAML
_PLACEHOLDER = "jslspkeep{:06d}x"


def _format_yaml(text: str, doc, options: FormatOptions) -> str:
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    protected, kept = _protect(text, doc)
    y = YAML(typ="rt")
    y.indent(mapping=2, sequence=4, offset=2)
    y.width = 1 << 20
    y.preserve_quotes = True
    try:
        data = y.load(protected)
    except Exception as exc:  # ruamel refuses something libyaml accepted
        raise FormatError(f"cannot format: {exc}".splitlines()[0]) from None
    if options.sort_keys:
        stack = [((), data)]
        while stack:
            path, node = stack.pop()
            if isinstance(node, CommentedMap):
                order = ORDER.get(kind_of(path) or "")
                if order:
                    _reorder(node, order)
                stack.extend((path + (k,), v) for k, v in node.items())
            elif isinstance(node, CommentedSeq):
                stack.extend((path + (i,), v) for i, v in enumerate(node))
    buf = io.StringIO()
    y.dump(data, buf)
    out = buf.getvalue()
    for key, original in kept.items():
        out = out.replace(key, original)
    return _tidy(out)


def _protect(text: str, doc):
    """Swap every plain scalar YAML 1.2 would read differently for a placeholder."""
    spans = sorted({(p.start, p.end) for p in doc.problems if p.code in ("JS905", "JS910")})
    kept = {}
    parts, last = [], 0
    for i, (s, e) in enumerate(spans):
        key = _PLACEHOLDER.format(i)
        kept[key] = text[s:e]
        parts.append(text[last:s])
        parts.append(key)
        last = e
    parts.append(text[last:])
    return "".join(parts), kept


def _reorder(node, order) -> None:
    known = [k for k in order if k in node]
    unknown = [k for k in node if k not in order]
    if list(node.keys()) == known + unknown:
        return
    for k in known + unknown:
        node.move_to_end(k)


_COMMENT_LINE = re.compile(r"^[ \t]*#")


def _tidy(out: str) -> str:
    """No trailing spaces, blank-line runs collapsed, full-line comments indented like
    the line they precede, one final newline."""
    lines = [line.rstrip() for line in out.split("\n")]
    # comments take the indentation of the next content line
    nxt = None
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        if not line.strip():
            continue
        if _COMMENT_LINE.match(line):
            if nxt is not None:
                lines[i] = " " * nxt + line.lstrip()
        else:
            nxt = len(line) - len(line.lstrip())
    out_lines = []
    for line in lines:
        if not line and out_lines and not out_lines[-1]:
            continue
        out_lines.append(line)
    while out_lines and not out_lines[0]:
        out_lines.pop(0)
    while out_lines and not out_lines[-1]:
        out_lines.pop()
    return "\n".join(out_lines) + "\n"


def _comments(text: str) -> list[str]:
    """Every comment's text (for the no-comment-lost check), in a stable order."""
    out = []
    for line in text.split("\n"):
        i = _comment_start(line)
        if i is not None:
            out.append(line[i:].strip())
    return sorted(out)


def _comment_start(line: str):
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            if i == 0 or line[i - 1] in " \t[{,:-":
                quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return i
    return None


# --------------------------------------------------------------------------- JSON
def _format_json(text: str, doc, options: FormatOptions) -> str:
    data = json.loads(text)
    if options.sort_keys:
        data = _sorted_json(data, ())
    out = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if to_python(parse(out, "json").root) != to_python(doc.root):  # pragma: no cover - safety
        raise FormatError("not formatted: the result would change what Flux reads")
    return out


def _sorted_json(value, path):
    if isinstance(value, dict):
        order = ORDER.get(kind_of(path) or "")
        keys = list(value)
        if order:
            keys = [k for k in order if k in value] + [k for k in keys if k not in order]
        return {k: _sorted_json(value[k], path + (k,)) for k in keys}
    if isinstance(value, list):
        return [_sorted_json(v, path + (i,)) for i, v in enumerate(value)]
    return value


__all__ = ["FormatError", "FormatOptions", "format_text", "load_options"]
