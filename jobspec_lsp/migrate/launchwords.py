"""A launch line's words as the script's conversion writes them: the scheduler's variables
in them replaced as the body's conversion replaces them (a figure, a command, a new name),
every other word the shell expands kept as the script wrote it.
"""

from __future__ import annotations

from types import ModuleType

from jobspec_lsp.fluxcli import shell
from jobspec_lsp.fluxcli.argv import Word
from jobspec_lsp.migrate.body import replacement, variables
from jobspec_lsp.migrate.model import Shape, is_dynamic


def _as_written(text: str, w: Word) -> Word:
    """A word holding a `$` as the script writes it (escapes and quotes kept: `"${NT}"`),
    but an option quoted whole (`"--ntasks=$N"`): its value, the option's name unquoted."""
    raw = text[w.start : w.end]
    if "$" not in raw or raw.startswith("'") or (raw.startswith('"') and w.value[:1] == "-"):
        return w
    return Word(raw, w.start, w.end)


def _unquoted(value: str) -> str:
    """A word's text with its quotes read (`--ntasks="1"` → `--ntasks=1`)."""
    got, _, _ = shell.split(value, 0)
    return got[0].value if len(got) == 1 else value


Subs = dict[int, tuple[int, str]]  # a variable's start -> (its end, what the body writes)


def substitutions(text: str, mod: ModuleType, sh: Shape, start: int) -> Subs:
    """What the body's conversion writes for each of the scheduler's variables after
    ``start`` (:func:`.body.convert`): a figure, a command, a new name."""
    out: Subs = {}
    for name, a, b, bare in variables(text, mod):
        if bare or a < start:
            continue
        how = mod.VARIABLES.get(name, (None, ""))[0]
        if how is not None and how.startswith("=PWD"):
            new = how.partition(":")[2]
            if new and new != name:
                out[a] = (b, f"${new}")
            continue
        repl = replacement(how, sh)
        if repl is not None:
            out[a] = (b, repl)
    return out


def resolve(text: str, words: list[Word], dynamic: set[int], subs: Subs):
    """The words with the scheduler's variables in them as the body writes them: a figure
    (`-n $SLURM_NTASKS`, `--ntasks="${SLURM_NTASKS}"`, `-n$LSB_DJOB_NUMPROC` → 4), a new
    name (`$SLURM_SUBMIT_DIR` → `$SUBMIT_DIR`); other words the shell expands are carried
    as written (`\\$N` in a here-document stays so)."""
    out = [_as_written(text, w) for w in words]
    still = set(dynamic)
    for i in dynamic:
        w = words[i]
        inside = [(a, *subs[a]) for a in range(w.start, w.end) if a in subs]
        if not inside:
            continue
        raw, at = [], w.start
        for a, b, repl in inside:
            raw += [text[at:a], repl]
            at = b
        new = "".join(raw) + text[at : w.end]
        if not is_dynamic(new):
            still.discard(i)
        quoted_option = new[:1] == '"' and w.value[:1] == "-"
        value = _unquoted(new) if not is_dynamic(new) or quoted_option else new
        out[i] = Word(value, w.start, w.end)
    return out, still
