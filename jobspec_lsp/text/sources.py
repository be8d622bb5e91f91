"""Where jobspecs come from: which files a directory holds, how a file is read, and
which reader (JSON or YAML) it gets. One module for the CLI, conversions and the
language server.

Reader:

- A name ending in ``.json`` (or an editor's ``json``/``jsonc`` language) is JSON.
- A name ending in ``.yaml``/``.yml`` (or the ``yaml`` language) is YAML.
- Anything else (``job.jobspec``, no suffix, standard input) is JSON when its first
  character other than white space is ``{`` or ``[``, as Flux's own tools take it
  (``flux job submit`` reads JSON): a JSON-looking file is held to JSON's rules, so a
  trailing comma or a comment is reported instead of being read as YAML. Otherwise
  YAML.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

from jobspec_lsp.text import files
from jobspec_lsp.text.sniff import has_sentinel

JSON_SUFFIXES = (".json",)
YAML_SUFFIXES = (".yaml", ".yml")


def looks_like_json(text: str | bytes) -> bool:
    head = (
        text.lstrip("\ufeff \t\r\n")
        if isinstance(text, str)
        else text.lstrip(b" \t\r\n").removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
    )
    return head[:1] in ("{", "[", b"{", b"[")


def language_of(name: str | None, text: str | bytes = "", language_id: str | None = None) -> str:
    """``"json"`` or ``"yaml"`` for a document named ``name`` (None: standard input)
    with content ``text``; ``language_id`` is an editor's language, when there is one."""
    lid = (language_id or "").lower()
    if lid.startswith("json"):
        return "json"
    if lid.startswith("yaml"):
        return "yaml"
    low = (name or "").lower()
    if low.endswith(JSON_SUFFIXES):
        return "json"
    if low.endswith(YAML_SUFFIXES):
        return "yaml"
    return "json" if looks_like_json(text) else "yaml"


# a line whose first word is an option: `--nodes=2`, `-N 2`, `--ntasks-per-node 4`
_OPTION_LINE = re.compile(r"[ \t]*(?:-[A-Za-z]|--[A-Za-z][\w-]*)(?=[=\s]|$)")
SCAN = 200_000  # characters looked at


def option_lines(text: str) -> bool:
    """Whether every line of ``text`` that is neither blank nor a comment starts with an
    option (`--nodes=2`, `-N 2`: Flux's or another scheduler's), and one does: a batch
    script's directives without their sentinel, which is never a jobspec (YAML would read
    the lines as one string)."""
    seen = False
    for line in text[:SCAN].splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if not _OPTION_LINE.match(line):
            return False
        seen = True
    return seen


# --------------------------------------------------------------------------- discovery
# the file names a directory search takes, as patterns (also the language server's
# default `jobspec.files`, and the VS Code extension's, which its tests compare)
JOBSPEC_GLOBS = (
    "*.jobspec.yaml",
    "*.jobspec.yml",
    "*.jobspec.json",
    "jobspec.yaml",
    "jobspec.yml",
    "jobspec.json",
)
JOBSPEC_SUFFIXES = tuple(g[1:] for g in JOBSPEC_GLOBS if g.startswith("*"))
JOBSPEC_NAMES = tuple(g for g in JOBSPEC_GLOBS if not g.startswith("*"))
SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox"}
MAX_BYTES = files.MAX_BYTES


def is_jobspec_name(name: str) -> bool:
    low = name.lower()
    return low in JOBSPEC_NAMES or low.endswith(JOBSPEC_SUFFIXES)


SCRIPT_SUFFIXES = (".sh", ".bash", ".batch", ".flux")  # searched in directories


def _script_in_dir(path: Path) -> bool:
    if not path.name.endswith(SCRIPT_SUFFIXES):
        return False
    try:
        head = files.read_regular(path, 1 << 20, partial=True).decode("utf-8", "replace")
    except files.Unreadable:
        return False
    # a Slurm-only or a plain script is not ours to check
    return not is_jobspec_name(path.name) and has_sentinel(head)


def discover(paths: list[str]) -> Iterator[tuple[str, Path | None, str | None]]:
    """(shown path, Path or None for stdin, error or None) for each input: '-' is
    standard input, a directory the jobspec files under it (sorted, version-control
    and virtualenv folders skipped) and the batch scripts (``SCRIPT_SUFFIXES`` holding
    a ``#flux:`` sentinel), a file itself whatever its name."""
    for p in paths:
        if p == "-":
            yield "-", None, None
            continue
        path = Path(p)
        if path.is_dir():
            found: list[Path] = []
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
                # regular files only: a FIFO would block the reading, a device is no text
                found.extend(
                    Path(dirpath) / f
                    for f in filenames
                    if files.is_regular(Path(dirpath) / f)
                    and (is_jobspec_name(f) or _script_in_dir(Path(dirpath) / f))
                )
            for f in sorted(found):
                yield str(f), f, None
        elif path.exists() or path.is_symlink():
            yield p, path, None
        else:
            yield p, None, "no such file or directory"


class CannotRead(Exception):
    """Why a file cannot be read, in a few words."""


def read_bytes(path: Path | None) -> bytes:
    """A file's bytes (None: standard input); CannotRead says why not. A name given on
    the command line may be a FIFO (``<(...)``): it is read, as the user asked; a
    directory or a device is not."""
    if path is None:
        try:
            data = sys.stdin.buffer.read(MAX_BYTES + 1)
        except OSError as exc:
            raise CannotRead(exc.strerror or str(exc)) from None
        if len(data) > MAX_BYTES:
            raise CannotRead(f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB")
        return data
    try:
        return files.read_regular(path, MAX_BYTES, special=True)
    except files.Unreadable as exc:
        raise CannotRead(str(exc)) from None


def text_problem(data: bytes) -> str | None:
    """Why ``data`` is not a script's text, or None: bytes that are not UTF-8 (flux batch
    refuses such a script: "does not appear to be a script, or failed to encode as
    utf-8"), said "not a text file" when they hold a NUL too (a program, an image).
    The one reading of `check` and `convert` for a script."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        if b"\0" in data[:8192]:
            return "not a text file (binary data)"
        line = data.count(b"\n", 0, err.start) + 1
        return f"not UTF-8 text (line {line}; flux batch refuses it)"
    return None


def read_text(path: Path | None) -> tuple[bytes, str]:
    """The bytes and UTF-8 text of a file (None: stdin); CannotRead says why not."""
    data = read_bytes(path)
    why = text_problem(data)
    if why is not None:
        raise CannotRead(why)
    return data, data.decode("utf-8")


def write_in_place(path: Path, text: str) -> None:
    """Write ``text`` over ``path``'s content, as a careful editor saves: the file keeps
    its inode, so its owner, mode, hard links and extended attributes stay as they are
    (a rename would replace them). The text was formatted and checked in memory first;
    a file nobody may write (no write bit in its mode) is refused, even for root."""
    if not path.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise PermissionError(13, "read-only file: left as it is")
    data = text.encode("utf-8")
    with open(path, "r+b") as fh:
        fh.write(data)
        fh.truncate(len(data))
        fh.flush()
        os.fsync(fh.fileno())
