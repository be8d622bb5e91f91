"""The convert tool's result: a Slurm, LSF or PBS script's conversion
(:func:`jobspec_lsp.migrate.convert.convert`) said as JSON. What the conversion says of
each place of the original sorts into three lists, each entry with its range there:

- ``carried``: a directive line written as `#flux:` options (``flux``: what was written), a
  launch line written as `flux run`, a variable written as its Flux equivalent;
- ``approximated``: carried with a difference (another default, a layout Flux gives
  otherwise, a line written for flux batch);
- ``refused``: not carried (kept as written, or as a comment, for a person to decide),
  or the whole script when Flux cannot run it as one job (then ``script`` is null and
  ``refusal`` says why)."""

from __future__ import annotations

from jobspec_lsp import kinds
from jobspec_lsp.mcp import verdict
from jobspec_lsp.migrate import convert as migrate
from jobspec_lsp.script import sbatch
from jobspec_lsp.text.positions import LineIndex

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing; True to mypy
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_APPROXIMATED = ("note", "approx")
_REFUSED = ("kept", "bad", "late", "launch", "refused")
_SENTINELS = {"slurm": "#SBATCH", "lsf": "#BSUB", "pbs": "#PBS"}


def converted(text: str, source: str, analyse: Callable) -> dict[str, Any]:
    """The convert tool's result for ``text`` from ``source`` (slurm, lsf, pbs, auto);
    ``analyse(kind, text)``: (document, diagnostics) with the call's settings."""
    conv = migrate.convert(text, source)
    lines = LineIndex(text)
    result: dict[str, Any] = {
        "scheduler": conv.scheduler,
        "script": None if conv.refused else conv.text,
        "carried": _carried(text, lines, conv),
        "approximated": [_said(text, lines, f) for f in conv.findings if f.kind in _APPROXIMATED],
        "refused": [_said(text, lines, f) for f in conv.findings if _refused(conv, f)],
        "positionEncoding": verdict.POSITION_ENCODING,
    }
    if conv.refused:  # the original's findings: where the refusal is
        result["refusal"] = conv.refused
        doc = kinds.detect(None, text, explicit=True).read(text)
        result["findings"] = verdict.findings(doc, sbatch.diagnostics(text, source))
        return result
    word = _SENTINELS.get(source, "#SBATCH, #BSUB or #PBS")
    if not conv.scheduler or (source in _SENTINELS and word not in text):
        result["note"] = f"no {word} directives: nothing of theirs to convert"
    doc, diags = analyse(kinds.detect(None, conv.text, explicit=True), conv.text)
    result["findings"] = verdict.findings(doc, diags)
    return result


def _said(text: str, lines: LineIndex, f, flux: str | None = None) -> dict[str, Any]:
    said = {
        "range": verdict.range_json(lines, f.start, f.end),
        "line": lines.position(f.start).line + 1,
        "original": text[f.start : f.end],
        "message": f.message,
    }
    if flux is not None:
        said["flux"] = flux
    return said


def _refused(conv: migrate.Conversion, f) -> bool:
    """Whether a finding is of something not carried: a variable is carried where the
    conversion wrote its Flux equivalent."""
    if f.kind == "variable":
        return not _rewritten_at(conv, f.start, f.end)
    return f.kind in _REFUSED


def _rewritten_at(conv: migrate.Conversion, start: int, end: int) -> bool:
    return any(e.start <= start and end <= e.end and e.end > e.start for e in conv.edits)


def _carried(text: str, lines: LineIndex, conv: migrate.Conversion) -> list[dict[str, Any]]:
    """The directive lines written for Flux, the launch lines and the variables, in the
    order of the original."""
    out = []
    for start, new in conv.lines.items():
        end = _line_end(text, start)
        if start in conv.moved:
            why = "written with the job's size, on the first line that gives it"
        elif new:
            why = "written as #flux: directives"
        else:
            why = "nothing for Flux to write"
        out.append((start, _said(text, lines, _At(start, end, why), new)))
    for f in conv.findings:
        if f.kind == "command":
            ls, le = _line_start(text, f.start), _line_end(text, f.start)
            step = _line_after(text, conv, ls, le)
            out.append((f.start, _said(text, lines, _At(ls, le, f.message), step)))
        elif f.kind == "variable" and _rewritten_at(conv, f.start, f.end):
            new = next(e.text for e in conv.edits if e.start <= f.start and f.end <= e.end)
            out.append((f.start, _said(text, lines, f, new)))
    return [said for _, said in sorted(out, key=lambda p: p[0])]


class _At:
    """A place of the original and what is said of it (a finding's shape)."""

    __slots__ = ("start", "end", "message")

    def __init__(self, start: int, end: int, message: str) -> None:
        self.start, self.end, self.message = start, end, message


def _line_start(text: str, at: int) -> int:
    return text.rfind("\n", 0, at) + 1


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _line_after(text: str, conv: migrate.Conversion, start: int, end: int) -> str | None:
    """The line ``start``..``end`` of the original as the conversion wrote it (None when
    an edit reaches beyond it)."""
    edits = [e for e in conv.edits if e.end > start and e.start < end]
    if any(e.start < start or e.end > end for e in edits):
        return None
    out, pos = [], start
    for e in sorted(edits, key=lambda e: e.start):
        out += [text[pos : e.start], e.text]
        pos = e.end
    out.append(text[pos:end])
    return "".join(out).rstrip("\r")
