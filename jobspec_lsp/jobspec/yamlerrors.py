"""What libyaml refuses, said on the character to change: a syntax error (a tab in the
indentation, JS904; a document that ends before a bracket closes; the construct the
error is inside), a second document (JS903), and whether an error is the library's own
nesting limit rather than a mistake in the text."""

from __future__ import annotations

import re

from jobspec_lsp.diagnostics import Diagnostic
from jobspec_lsp.jobspec.problems import MULTIPLE_DOCUMENTS, SYNTAX, TAB_INDENT, E
from jobspec_lsp.text.brackets import open_brackets

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

    import yaml

    from jobspec_lsp.text.positions import LineIndex

_DOC_MARKER = re.compile(r"^(?:---|\.\.\.)(?=\s|$)", re.M)


def library_depth_limit(exc: yaml.MarkedYAMLError) -> bool:
    """Whether ``exc`` is the YAML library's own nesting limit, not a syntax error:
    libyaml 0.2.6 says "exceeded maximum nesting depth" (while increasing the flow or
    block level); the words are matched loosely, as another release may put them
    differently."""
    problem = (exc.problem or "").lower()
    return "nesting" in problem and ("depth" in problem or "level" in problem)


def error_offset(exc: yaml.MarkedYAMLError, text: str) -> int:
    """Where in ``text`` the library stopped (its problem's mark, else its context's)."""
    mark = exc.problem_mark or exc.context_mark
    return min(mark.index if mark is not None else 0, len(text))


def multiple_documents(text: str, lines: LineIndex, at: int) -> Diagnostic:
    """JS903 for the second document, which starts at ``at``: on its marker when it has
    one, else on its first line."""
    m = _DOC_MARKER.search(text, at)
    start = m.start() if m and m.start() == at else at
    line = lines.position(start).line
    end = lines.line_start(line) + len(lines.line_text(line))
    if m and m.start() == at:
        end = m.end()
    message = (
        "a jobspec is a single YAML document; remove the second document (everything from here on)"
    )
    return Diagnostic(MULTIPLE_DOCUMENTS, E, message, start, max(end, start + 1))


def syntax_error(exc: yaml.MarkedYAMLError, text: str, lines: LineIndex) -> Diagnostic:
    """JS904 when the error is a tab in a line's indentation, else JS901 with the
    library's words and what they refer to (an unclosed bracket, the construct's start)."""
    off = error_offset(exc, text)
    tab = _indenting_tab(text, lines, off)
    if tab is not None:
        message = "tab character in indentation; YAML only allows spaces here"
        return Diagnostic(TAB_INDENT, E, message, tab, tab + 1)
    message, related = _said(exc, text, lines, off)
    if off >= len(text.rstrip()):
        # at the end of the input: point at the last real character instead
        off = max(len(text.rstrip()) - 1, 0)
    end = max(min(off + 1, len(text)), off)
    return Diagnostic(SYNTAX, E, message, off, end, {"related": related} if related else None)


def _indenting_tab(text: str, lines: LineIndex, off: int) -> int | None:
    """The tab of the indentation the error at ``off`` is in (or at), if any."""
    ch = text[off : off + 1]
    line = lines.position(off).line
    line_text = lines.line_text(line)
    indent = line_text[: len(line_text) - len(line_text.lstrip(" \t"))]
    if "\t" in indent and (ch == "\t" or off - lines.line_start(line) <= len(indent)):
        return lines.line_start(line) + indent.index("\t")
    return None


def _said(
    exc: yaml.MarkedYAMLError, text: str, lines: LineIndex, off: int
) -> tuple[str, list[list[Any]] | None]:
    """The message of a syntax error and the places it refers to (related information):
    the bracket never closed when the text ends too early, or where the construct the
    library was reading starts."""
    problem = exc.problem or "invalid YAML"
    message = problem
    related = None
    end = len(text.rstrip())
    at_end = off >= end
    context_at_end = exc.context_mark is not None and exc.context_mark.index >= end
    if at_end and (context_at_end or not exc.context):
        opener = next(reversed(open_brackets(text, comments=True)), None)
        message = "the document ends too early: " + problem
        if opener is not None:
            pos = lines.position(opener)
            message += (
                f" (the {text[opener]!r} at line {pos.line + 1}, column "
                f"{pos.character + 1} is never closed)"
            )
            related = [[opener, opener + 1, f"this {text[opener]!r} is never closed"]]
    elif exc.context and exc.context_mark is not None and exc.context_mark is not _mark(exc):
        cidx = exc.context_mark.index
        cpos = lines.position(cidx)
        message = (
            f"{problem} ({exc.context} that starts at line {cpos.line + 1}, "
            f"column {cpos.character + 1})"
        )
        what = exc.context.removeprefix("while parsing ").removeprefix("a ")
        related = [[cidx, min(cidx + 1, len(text)), f"the {what} starts here"]]
    elif exc.context:
        message = f"{problem} ({exc.context})"
    return message, related


def _mark(exc: yaml.MarkedYAMLError) -> Any:
    return exc.problem_mark or exc.context_mark
