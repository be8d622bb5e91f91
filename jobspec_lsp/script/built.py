"""What Flux refuses only once a script's jobspec is built from every option: a --setattr or
--setopt into a value that is not a mapping, a --conf that cannot be merged, and attribute
values job-ingest refuses, each at the option that set it. Loaded only for a script with
--setattr, --setopt or --conf (the boundary `batch._BUILT_CHECKS`): it reads the built
jobspec with the jobspec reader and rules."""

from __future__ import annotations

import functools
import json

from jobspec_lsp.diagnostics import Diagnostic, Severity
from jobspec_lsp.fluxcli.argv import Given
from jobspec_lsp.jobspec import tree as jobspec_tree
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.rules import analysis
from jobspec_lsp.script.batch import BAD_VALUE, BatchError, built_jobspec
from jobspec_lsp.script.reading import value_range

E, W = Severity.ERROR, Severity.WARNING


def problems(text: str, given: list[Given]) -> list[Diagnostic]:
    """What Flux refuses only once the jobspec is built from every option: a
    --setattr/--setopt into a value that is not a mapping, a --conf that cannot be
    merged, and attribute values job-ingest refuses (``system.duration=1h``), each at
    the option that set it."""
    try:  # files an option names are left out: a check never reads them
        js = built_jobspec(text, "script", "/", read_files=None)
    except BatchError as err:
        if err.at is None:
            return []
        a, b = value_range(err.at)
        return [Diagnostic(BAD_VALUE, W if err.ours else E, str(err), a, b)]
    except RecursionError:
        return []  # deeper than this tool builds; Flux's own limits are checked above
    sets = [g for g in given if g.option.long == "setattr" and g.value]
    if not sets:
        return []
    # the script's own text is left out: an edit of its body changes nothing checked here,
    # and the findings are cached by the rest
    files = js["attributes"]["system"].get("files", {})
    if "script" in files:
        files["script"] = dict(files["script"], data="")
    out: list[Diagnostic] = []
    for *where, message in _ingest_refusals(json.dumps(js)):
        g = next(
            (
                g
                for g in reversed(sets)
                if _setattr_path(g.value or "")[: len(where)] == where
                or where[: len(_setattr_path(g.value or ""))] == _setattr_path(g.value or "")
            ),
            None,
        )
        if g is not None:
            a, b = value_range(g)
            out.append(Diagnostic(BAD_VALUE, E, f"{message} (Flux refuses the job)", a, b))
    return out


@functools.lru_cache(maxsize=256)
def _ingest_refusals(dumped: str) -> tuple[tuple[str, ...], ...]:
    """(path..., message) of each error flux-core's ingest gives the built jobspec
    ``dumped`` (JSON), this tool's own reading limits (JS9xx) left out."""

    doc = parse(dumped, "json")
    out = []
    for d in analysis.check(doc, language="json", target="flux-core"):
        if d.severity != E or d.code.startswith("JS9"):
            continue  # JS9xx: limits of this tool's reading, not Flux's
        out.append((*_path_at(doc.root, d.start), d.message))
    return tuple(out)


def _setattr_path(item: str) -> list[str]:
    """The path under the jobspec of ``--setattr KEY[=VAL]``'s key."""
    key = item.partition("=")[0]
    if key.startswith("."):
        return ["attributes", *key[1:].split(".")]
    if key.startswith("attributes."):
        return key.split(".")
    if key.startswith(("user.", "system.")):
        return ["attributes", *key.split(".")]
    return ["attributes", "system", *key.split(".")]


def _path_at(node, offset: int) -> list[str]:
    """The keys leading to the innermost mapping entry holding ``offset``."""
    path: list[str] = []
    while True:
        if isinstance(node, jobspec_tree.Mapping):
            for k, v in node.pairs:
                if k.start <= offset < max(v.end, k.end):
                    path.append(str(k.value))
                    node = v
                    break
            else:
                return path
        elif isinstance(node, jobspec_tree.Sequence):
            for k, v in enumerate(node.items):
                if v.start <= offset < v.end:
                    path.append(str(k))
                    node = v
                    break
            else:
                return path
        else:
            return path
