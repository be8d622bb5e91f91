"""The tables of docs/migration.md, made from the schedulers' option tables (one per
scheduler: option → what Flux makes of it → the reference it follows), with the counts
of options mapped exactly, approximated (a warning says how) and not expressible.

    python -m jobspec_lsp.migrate.tables slurm|lsf|pbs
"""

from __future__ import annotations

import sys
from types import ModuleType

from jobspec_lsp.migrate import lsf, pbs, pyxis, slurm
from jobspec_lsp.migrate.reading import Option

SCHEDULERS: dict[str, ModuleType] = {"slurm": slurm, "lsf": lsf, "pbs": pbs}


def fidelity(o: Option) -> str:
    """exact | approximated | not expressible | nothing to carry."""
    if o.reader == "-":
        return "nothing to carry"
    if not o.reader or o.reader == "array":
        return "not expressible"
    return "approximated" if o.note else "exact"


def counts(name: str) -> dict[str, int]:
    out = {"exact": 0, "approximated": 0, "not expressible": 0, "nothing to carry": 0}
    for o in SCHEDULERS[name].OPTIONS:
        out[fidelity(o)] += 1
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(name: str) -> str:
    """The table of one scheduler's options, its counts, and its body variables."""
    mod = SCHEDULERS[name]
    n = counts(name)
    rows = [
        f"{n['exact']} options mapped exactly, {n['approximated']} approximated (the "
        f"conversion says how, at the option), {n['not expressible']} not expressible (kept "
        f"as written, with a warning), {n['nothing to carry']} with nothing to carry.",
        "",
        f"| {mod.COMMAND} | Flux | how | reference |",
        "|---|---|---|---|",
    ]
    for o in mod.OPTIONS:
        names = ", ".join(f"`{x}`" for x in o.names)
        how = fidelity(o)
        flux = o.flux or ("—" if how != "nothing to carry" else "nothing")
        said = how + (f": {o.note}" if o.note else "")
        rows.append(f"| {names} | {_cell(flux)} | {_cell(said)} | [ref]({o.ref}) |")
    rows += ["", "| in the script body | under Flux |", "|---|---|"]
    for var, (_how, words) in mod.VARIABLES.items():
        rows.append(f"| `${var}` | {_cell(words)} |")
    for cmd, words in mod.COMMANDS.items():
        rows.append(f"| `{cmd}` | {_cell(words)} |")
    return "\n".join(rows) + "\n"


PYXIS_HEADING = "### Pyxis containers (srun --container-*)"
_HEADINGS = {
    "slurm": "### Slurm (sbatch)",
    "lsf": "### LSF (bsub)",
    "pbs": "### PBS (qsub: PBS Pro and Torque)",
}


def document(doc: str) -> str:
    """``doc`` (docs/migration.md) with its tables made again, the rest as it was: each
    table follows its heading, up to the next heading or the end."""
    tables = [(heading, markdown(name)) for name, heading in _HEADINGS.items()]
    for heading, table in [*tables, (PYXIS_HEADING, pyxis.markdown())]:
        at = doc.index(heading) + len(heading)
        end = doc.find("\n#", at)
        end = len(doc) if end < 0 else end + 1
        doc = doc[:at] + "\n\n" + table + ("\n" if end < len(doc) else "") + doc[end:]
    return doc


if __name__ == "__main__":
    if sys.argv[1:2] == ["--doc"]:  # python -m jobspec_lsp.migrate.tables --doc docs/migration.md
        with open(sys.argv[2], encoding="utf-8") as fh:
            text = document(fh.read())
        with open(sys.argv[2], "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        print(markdown(sys.argv[1] if len(sys.argv) > 1 else "slurm"), end="")
