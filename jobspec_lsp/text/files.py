"""Reading a file that something on disk may have made hostile: a FIFO that would block
a read for ever, a directory or a device under a file's name, a dangling symlink, a file
too large to hold, nesting deeper than a reader can follow.

Standard library only: the site checks use it under Flux's own Python (the job-ingest
validator plugin), where this package's dependencies are not installed.
"""

from __future__ import annotations

import os
import stat

MAX_BYTES = 64 * 1024 * 1024  # what any reader of ours takes, at most
MAX_DEPTH = 200  # nesting a reader follows, at most (a jobspec's limit too)


class Unreadable(Exception):
    """Why a file cannot be read, in a few words (no path: the caller names it)."""


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words ("a directory", ...); "a file" when regular."""
    for test, words in _KINDS:
        if test(mode):
            return words
    return "a file" if stat.S_ISREG(mode) else "not a regular file"


def is_regular(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` (its symlinks followed) is a regular file; False when it is not
    there, dangling, or cannot be looked at. Never opens it."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def read_regular(
    path: str | os.PathLike[str],
    limit: int = MAX_BYTES,
    special: bool = False,
    partial: bool = False,
) -> bytes:
    """The bytes of ``path`` (at most ``limit``); :class:`Unreadable` says why not, or
    that the file is larger (unless ``partial``: then its first ``limit`` bytes).

    The file is opened without blocking and looked at before a byte is read: anything but
    a regular file is refused, so a FIFO never blocks the reader, unless ``special`` (a
    name the user gave on the command line, where reading a pipe is what they asked)."""
    flags = os.O_RDONLY | getattr(os, "O_NOCTTY", 0)
    if not special:
        flags |= getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        dangling = os.path.islink(path)
        raise Unreadable("a symlink to nothing" if dangling else "no such file") from None
    except IsADirectoryError:
        raise Unreadable("a directory, not a file") from None
    except OSError as err:
        raise Unreadable(err.strerror or str(err)) from None
    except ValueError as err:  # a NUL in the name
        raise Unreadable(str(err)) from None
    mode = os.fstat(fd).st_mode
    if stat.S_ISDIR(mode) or not (stat.S_ISREG(mode) or special):
        os.close(fd)
        raise Unreadable(f"{kind_of(mode)}, not a file")
    if not special:
        os.set_blocking(fd, True)
    with os.fdopen(fd, "rb") as fh:
        try:
            data = fh.read(limit + 1)
        except OSError as err:
            raise Unreadable(err.strerror or str(err)) from None
    if len(data) > limit:
        if partial:
            return data[:limit]
        raise Unreadable(f"larger than {_size(limit)}")
    return data


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n >= 1024 * 1024 else f"{n} bytes"


def too_deep(text: str, limit: int = MAX_DEPTH, comment: str = "") -> int | None:
    """The 1-based line where brackets (``[``/``{``) outside strings nest deeper than
    ``limit``, or None. Strings are JSON's and TOML's (double and single quotes, the
    triple forms); ``comment`` starts a comment to the end of the line ("#" for TOML).
    A reader's own recursion limit is met later than this, so a deep file is refused
    here with its line instead of a RecursionError there."""
    depth = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "[{":
            depth += 1
            if depth > limit:
                return text.count("\n", 0, i) + 1
        elif c in "]}":
            depth = max(0, depth - 1)
        elif c == '"' or (c == "'" and comment):
            i = _string_end(text, i)
            continue
        elif comment and c == comment:
            i = text.find("\n", i)
            i = n if i < 0 else i
            continue
        i += 1
    return None


def _string_end(text: str, i: int) -> int:
    """The offset after the string that starts at ``i``."""
    q = text[i]
    if text.startswith(q * 3, i):
        end = text.find(q * 3, i + 3)
        return len(text) if end < 0 else end + 3
    j = i + 1
    while j < len(text) and text[j] not in (q, "\n"):
        j += 2 if (q == '"' and text[j] == "\\") else 1
    return j + 1
