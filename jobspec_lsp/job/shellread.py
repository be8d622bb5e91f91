"""Where a shell script's `$` expands nothing: comments, '...' strings, escaped characters
and quoted here-documents (unless another shell is handed them), and the here-documents no
shell runs. Shared by the checks of scheduler variables and of Flux command lines."""

from __future__ import annotations

import functools
import re

# a command that hands the quoted text to another shell, which expands it there:
# `sh -c '...$SLURM_PROCID...'`, `bash <<'EOF'`, `ssh host <<'EOF'`
# a shell as a command word (`sh`, `/bin/bash`, `ssh`), not a name ending in .sh
_SHELL_WORD = r"(?:^|(?<=[\s;&|(]))(?:[^\s;&|()<>]*/)?(?:(?:ba|z|k|da)?sh|ssh)\b(?!\.)"
_INNER_SHELL_C = re.compile(_SHELL_WORD + r"\s+(?:-\w+\s+)*-\w*c\w*\s*$")
_INNER_SHELL_IN = re.compile(_SHELL_WORD + r"[^|;&]*$")
_SHELL_STOP = re.compile(r"[#\\'\"\n]|<<")
_SHELL_STOP_NO_NL = re.compile(r"[#\\'\"]|<<")  # no here-document waiting for its body
_HEREDOC = re.compile(r"<<(-?)[ \t]*(?:'([^'\n]*)'|\"([^\"\n]*)\"|\\?([A-Za-z_][\w]*))")


def shell_literals(text: str) -> list[tuple[int, int]]:
    """See :func:`_shell_reading`: its literal spans."""
    return list(_shell_reading(text)[0])


def written_heredocs(text: str) -> list[tuple[int, int]]:
    """See :func:`_shell_reading`: the here-documents no shell runs."""
    return list(_shell_reading(text)[1])


@functools.lru_cache(maxsize=8)
def _shell_reading(text: str) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """(start, end) of the parts of a shell script where `$` expands nothing: comments,
    '...' strings, a backslash-escaped character, and here-documents whose delimiter is
    quoted (``<<'EOF'``), unless another shell is handed that text to run (``sh -c '...'``,
    ``bash <<'EOF'``): there it expands. One pass over the text, in order; a reading good
    enough to keep the SLURM_* findings and their fixes out of text printed as it is.
    Also the (start, end) of every here-document no shell runs (``cat > job.sh <<EOF``):
    text written somewhere, not run by this script."""
    r = _Reading(text)
    n = len(text)
    i = 0
    while i < n:
        m = (_SHELL_STOP if r.heredocs else _SHELL_STOP_NO_NL).search(text, i)
        if m is None:
            break
        i = m.start()
        ch = m.group(0)
        if ch == "\n":
            i = r.newline(i + 1)
        elif ch == "\\":
            r.spans.append((i, min(i + 2, n)))
            i += 2
        elif ch == '"':
            r.dquote = not r.dquote
            i += 1
        elif r.dquote:
            i += 1
        elif ch == "'":
            i = r.single_quotes(i)
        elif ch == "#":
            i = r.comment(i)
        else:
            i = r.heredoc(i)
    return tuple(r.spans), tuple(r.bodies)


class _Reading:
    """The shell's reading of a script, in one pass: the spans where `$` expands nothing,
    the here-documents no shell runs, those still to be read, inside double quotes."""

    __slots__ = ("text", "spans", "bodies", "heredocs", "dquote")

    def __init__(self, text: str) -> None:
        self.text = text
        self.spans: list[tuple[int, int]] = []
        self.bodies: list[tuple[int, int]] = []
        # (delimiter, literal, strip tabs, run by a shell)
        self.heredocs: list[tuple[str, bool, bool, bool]] = []
        self.dquote = False

    def newline(self, i: int) -> int:
        """After a newline: the bodies of the here-documents its line opened."""
        text, n = self.text, len(self.text)
        while self.heredocs and not self.dquote:  # the bodies start on the next line
            delim, literal, strip, run = self.heredocs.pop(0)
            body = i
            while i < n:
                nl = text.find("\n", i)
                end = n if nl < 0 else nl
                line = text[i:end]
                if (line.lstrip("\t") if strip else line) == delim:
                    break
                i = end + 1 if nl >= 0 else n
            else:
                end = nl = n
            if literal:
                self.spans.append((body, i))
            if not run:
                self.bodies.append((body, i))
            if i < n:
                i = end + 1 if nl >= 0 and nl < n else n
        return i

    def single_quotes(self, i: int) -> int:
        """A '...' string: literal, unless another shell is handed it (``sh -c '...'``)."""
        text = self.text
        end = text.find("'", i + 1)
        end = len(text) if end < 0 else end + 1
        if not _INNER_SHELL_C.search(text, text.rfind("\n", 0, i) + 1, i):
            self.spans.append((i, end))
        return end

    def comment(self, i: int) -> int:
        """A '#' that starts a word starts a comment, to the end of its line."""
        text = self.text
        if i == 0 or text[i - 1] in " \t\n;&|()":
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            self.spans.append((i, end))
            return end
        return i + 1

    def heredoc(self, i: int) -> int:
        """A ``<<`` that opens a here-document: its body is read after this line."""
        text = self.text
        h = _HEREDOC.match(text, i)
        if h is None:
            return i + 2
        quoted = h.group(2) is not None or h.group(3) is not None or "\\" in h.group(0)
        delim = next(g for g in h.group(2, 3, 4) if g is not None)
        run = _INNER_SHELL_IN.search(text, text.rfind("\n", 0, i) + 1, i) is not None
        if quoted and run:
            quoted = False  # a shell reads the body, and expands it
        self.heredocs.append((delim, quoted, bool(h.group(1)), run))
        return h.end()
