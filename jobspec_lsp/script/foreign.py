"""The findings and hover of a script that holds another scheduler's words (JS589-JS599):
each directive line with what the conversion writes for it, what Flux cannot carry, the
scheduler's variables and commands left in the body. Loaded only for such a script (the
boundary `sbatch._MIGRATION`): it runs the conversion of :mod:`jobspec_lsp.migrate`."""

from __future__ import annotations

from jobspec_lsp.diagnostics import Diagnostic
from jobspec_lsp.migrate import body, tables
from jobspec_lsp.migrate import convert as migrate
from jobspec_lsp.script.sbatch import (
    _CODE,
    _DIRECTIVE,
    _OWNER,
    _WORD,
    SLURM_COMMAND,
    SLURM_VARIABLE,
    H,
    W,
)  # fmt: skip


def findings(text: str, source: str = "auto") -> tuple[Diagnostic, ...]:
    """JS589-JS599 for a script: each converted directive line (a hint whose fix is the
    whole conversion), what cannot be carried, and the scheduler left in the body."""

    out: list[Diagnostic] = []
    if not migrate.has_directives(text):
        out.extend(_body_only(text))
        out.sort(key=Diagnostic.sort_key)
        return tuple(out)
    conv = migrate.convert(text, source)
    for f in conv.findings:
        rule, sev = _CODE[f.kind]
        # no fix of its own: under the scheduler's directives a variable's Flux form is
        # right only once the whole script is Flux's (the conversion, JS590's action)
        out.append(Diagnostic(rule, sev, f.message, f.start, f.end))
    if conv.scheduler:
        mod = migrate.SCHEDULERS[conv.scheduler]
        fix = [(e.start, e.end, e.text) for e in conv.edits]
        title = f"Convert this {_OWNER[conv.scheduler]} script to Flux"
        for start, new in conv.lines.items():
            shown = new.split("\n")[0] if new else "nothing"
            if start in conv.moved:
                shown = "nothing here: what it asks is written with the job's size"
            out.append(
                Diagnostic(
                    _DIRECTIVE[conv.scheduler],
                    H,
                    f"a {_WORD[conv.scheduler]} directive, which flux batch ignores; the "
                    f"conversion writes: {shown}",
                    start,
                    start + len(_WORD[conv.scheduler]),
                    {"edits": fix, "title": title},
                )
            )
        launched = {f.start for f in conv.findings if f.kind in ("command", "launch")}
        for name, a, b in body.commands(text, mod):
            if a in launched:
                continue
            out.append(
                Diagnostic(
                    SLURM_COMMAND,
                    W,
                    f"{name} is {_OWNER[mod.NAME]}'s; under Flux: {mod.COMMANDS[name]}",
                    a,
                    b,
                )
            )
    out.sort(key=Diagnostic.sort_key)
    return tuple(out)


def _body_only(text: str) -> list[Diagnostic]:
    """A script without scheduler directives (a Flux script, half migrated by hand): the
    schedulers' variables and commands its body still uses."""

    out: list[Diagnostic] = []
    for mod in migrate.SCHEDULERS.values():
        for name, a, b, bare in body.variables(text, mod):
            how, words = mod.VARIABLES.get(
                name, (None, f"{mod.COMMAND} sets it; Flux does not, so it is empty under Flux")
            )
            repl = body.replacement(how, None)
            data = None
            if repl is not None:
                if not bare:
                    data = {"replace": repl, "title": f"Use {repl}"}
                elif repl.startswith("$FLUX"):
                    data = {"replace": repl[1:], "title": f"Use {repl[1:]}"}
            out.append(Diagnostic(SLURM_VARIABLE, W, f"{name}: {words}", a, b, data))
        for name, a, b in body.commands(text, mod):
            out.append(
                Diagnostic(
                    SLURM_COMMAND,
                    W,
                    f"{name} is {_OWNER[mod.NAME]}'s; under Flux: {mod.COMMANDS[name]}",
                    a,
                    b,
                )
            )
    return out


def hover_at(text: str, offset: int) -> tuple[str, int, int] | None:
    """(markdown, start, end) for a Slurm, LSF or PBS directive line under ``offset``: what
    the conversion writes for it, and the option under the cursor with its Flux form and
    the reference it follows (``offset`` is on such a line: :func:`.sbatch.hover_at`)."""
    ls = text.rfind("\n", 0, offset) + 1
    conv = migrate.convert(text, "auto")
    if not conv.scheduler:
        return None
    mod = migrate.SCHEDULERS[conv.scheduler]
    if mod.SENTINEL.match(text, ls) is None:
        return None
    le = text.find("\n", ls)
    le = len(text) if le < 0 else le
    line = text[ls:le].rstrip("\r")
    new = conv.lines.get(ls)
    parts = [f"**{_OWNER[conv.scheduler]}** `{line.strip()}`"]
    if new is None:
        parts.append("Flux: not converted (see the findings on this line).")
    elif ls in conv.moved:
        parts.append("Flux: written with the job's size: `" + _size_line(conv) + "`")
    elif new:
        parts.append(f"Flux:\n```sh\n{new}\n```")
    else:
        parts.append("Flux: nothing to write.")
    start, end = ls, ls + len(line)
    blk = mod.block(text)
    for dl in blk.lines:
        if dl.start != ls:
            continue
        for it in dl.items:
            if it.start <= offset <= it.end:
                opt = mod.TABLE.get(it.name)
                if opt is not None:
                    how = tables.fidelity(opt)
                    names = ", ".join(f"`{n}`" for n in opt.names)
                    said = f"{names}: {opt.flux or '—'} ({how}"
                    said += f": {opt.note})" if opt.note else ")"
                    parts.append(said + f" — [{mod.COMMAND} reference]({opt.ref})")
                start, end = it.start, it.end
                for f in conv.findings:
                    if f.start >= it.start and f.end <= it.end and f.kind != "command":
                        parts.append(f"- {f.message}")
    return "\n\n".join(parts), start, end


def _size_line(conv: migrate.Conversion) -> str:
    for new in conv.lines.values():
        if conv.shape is not None and new and " ".join(conv.shape.words) in new:
            return new.split("\n")[0]
    return " ".join(conv.shape.words) if conv.shape else ""
