"""Shared test helpers: paths, the RFC corpus, running the installed CLI."""

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("JOBSPEC_SHARED", REPO.parent / "shared"))
CORPUS = SHARED / "corpus" / "rfc" / "data"


def corpus_files(spec: str):
    folder = CORPUS / spec
    files = sorted(folder.glob("*.yaml"))
    if not files:
        raise RuntimeError(f"RFC corpus not found at {folder}; set JOBSPEC_SHARED to the shared/ folder")
    return files


def jobspec_exe() -> str:
    """The installed `jobspec` console script next to the running interpreter."""
    exe = Path(sys.executable).parent / "jobspec"
    if not exe.exists():
        raise RuntimeError(f"the jobspec console script is not installed next to {sys.executable}")
    return str(exe)


def run_cli(*args, input=None, cwd=None, timeout=60):
    return subprocess.run([jobspec_exe(), *map(str, args)], input=input, cwd=cwd,
                          capture_output=True, timeout=timeout)

