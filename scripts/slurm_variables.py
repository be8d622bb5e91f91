"""Derive the SLURM_* variables Slurm sets in a job from Slurm's own manual pages.

    python scripts/slurm_variables.py                # print the table
    python scripts/slurm_variables.py --write        # write jobspec_lsp/migrate/slurm_variables.json

The names are the ones sbatch(1) and srun(1) list under OUTPUT ENVIRONMENT VARIABLES
(what a batch script and its steps find in their environment). A SLURM_* name in neither
(SLURM_CONF, which Slurm's commands read) is the user's to set, not Slurm's.
tests/slurm/test_slurm_variables.py derives them again from the installed Slurm and fails
when the shipped table differs.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

MAN = Path("/usr/share/man/man1")
OUT = Path(__file__).resolve().parents[1] / "jobspec_lsp" / "migrate" / "slurm_variables.json"
_NAME = re.compile(r"\bSLURM_[A-Z0-9_]*[A-Z0-9]\b")


def section(page: str, title: str) -> str:
    """The roff text of one section of a manual page."""
    text = gzip.decompress((MAN / f"{page}.1.gz").read_bytes()).decode("utf-8", "replace")
    out, on = [], False
    for line in text.splitlines():
        if line.startswith(".SH"):
            on = title in line
            continue
        if on:
            out.append(line)
    return "\n".join(out)


def names(page: str) -> list[str]:
    """The variables a page's OUTPUT ENVIRONMENT VARIABLES section defines (its .TP heads)."""
    text = section(page, "OUTPUT ENVIRONMENT VARIABLES")
    heads = re.findall(r"^\.TP\n(.*)$", text, re.M)
    plain = [re.sub(r"\\f[BIRP]", "", h).replace("\\-", "-") for h in heads]
    return sorted({n for h in plain for n in _NAME.findall(h) if "*" not in h})


def version() -> str:
    try:
        got = subprocess.run(["sbatch", "--version"], capture_output=True, text=True, check=False)
    except OSError:
        return "unknown"
    return got.stdout.strip() or "unknown"


def table() -> dict:
    return {
        "source": f"{version()}: sbatch(1) and srun(1), OUTPUT ENVIRONMENT VARIABLES",
        "sbatch": names("sbatch"),
        "srun": names("srun"),
    }


if __name__ == "__main__":
    data = table()
    text = json.dumps(data, indent=1) + "\n"
    if "--write" in sys.argv:
        OUT.write_text(text)
        print(f"wrote {OUT}: {len(data['sbatch'])} sbatch, {len(data['srun'])} srun names")
    else:
        sys.stdout.write(text)
