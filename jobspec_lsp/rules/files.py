"""JS52x — `attributes.system.files`, the RFC 37 file archive."""

from __future__ import annotations

import base64
import binascii
import functools

from jobspec_lsp.diagnostics import Family
from jobspec_lsp.jobspec import examples, vocabulary
from jobspec_lsp.jobspec.tree import Mapping, Scalar, Sequence
from jobspec_lsp.rules.base import (
    Context,
    anchor_for_missing,
    describe,
    did_you_mean,
    is_int,
    is_str,
    suggest,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


_js = functools.partial(examples.with_system, "files")  # a jobspec with this files


_GOOD = _js(
    'script:\n  mode: 33261\n  size: 18\n  encoding: utf-8\n  data: "#!/bin/sh\\necho hi\\n"'
)

family = Family(
    rfc="RFC 37", good=_js('script:\n  mode: 33261\n  size: 3\n  encoding: utf-8\n  data: "hi\\n"')
)
NOT_ARCHIVE = family.error(
    """JS521 files-type: `files` is not a list of entries or a mapping of paths to entries.

    RFC 37 archives come in two forms: a list of entries with a path each, or a dictionary
    keyed by path.""",
    bad=_js("script"),
    good=_GOOD,
)
ENTRY_FORM = family.error(
    """JS522 file-entry: A file entry is not a mapping, or lacks `mode` or `path`.

    Every entry needs its mode (file type and permissions as an integer) and its path (in the
    list form; the dictionary form takes the path from the key).""",
    bad=_js('script:\n  data: "#!/bin/sh\\n"'),
    good=_GOOD,
)
UNSAFE_PATH = family.error(
    """JS523 file-path: A file path is absolute or climbs with `.` or `..`.

    Archive paths are relative to the job's directory and may not escape it.""",
    bad=_js("../etc/app.conf:\n  mode: 33188\n  data: {}"),
    good=_js("etc/app.conf:\n  mode: 33188\n  data: {}"),
    fix="replacement",
)
FIELD_TYPE = family.error(
    """JS524 file-field: A file entry key is unknown or has the wrong type.

    Entries hold path, mode, mtime, ctime, size (integers but path), encoding and data.""",
    bad=_js('script:\n  mode: "0755"\n  data: {}'),
    good=_js("script:\n  mode: 33261\n  data: {}"),
)
ENCODING = family.error(
    """JS525 file-encoding: A file encoding other than utf-8, base64 or blobvec.

    RFC 37 defines exactly these three encodings.""",
    bad=_js('script:\n  mode: 33261\n  size: 3\n  encoding: utf8\n  data: "hi\\n"'),
    fix="replacement",
    safety="repair",
)
CONTENT = family.error(
    """JS526 file-content: A file entry's size, encoding and data do not fit together.

    Encoded content (utf-8, base64) needs size, encoding and string data; blobvec data is a
    list of [offset, size, blobref]; JSON content and symlinks carry data without size or
    encoding; directories carry none of them.""",
    bad=_js('script:\n  mode: 33261\n  encoding: utf-8\n  data: "hi\\n"'),
)
MODE_TYPE = family.error(
    """JS527 file-mode-type: A file mode without a file type (regular file, directory or
    symlink).

    `mode` is the whole st_mode: file type bits and permissions. `0644` (420) has only the
    permissions, so the job shell cannot tell what to create and fails to unpack the archive.
    A regular file is 0100644 (33188), an executable 0100755 (33261), a directory 040755
    (16877).""",
    bad=_js('script:\n  mode: 493\n  size: 3\n  encoding: utf-8\n  data: "hi\\n"'),
    fix="replacement",
    safety="repair",
)
SIZE = family.error(
    """JS528 file-size: A file entry's size is not the length of its decoded data.

    `size` is the length in bytes of the decoded content (UTF-8 bytes, or the bytes base64
    stands for). A size that does not match makes the job shell reject the entry; the
    quick-fix writes the right one.""",
    bad=_js('script:\n  mode: 33261\n  size: 2\n  encoding: utf-8\n  data: "hi\\n"'),
    fix="replacement",
    safety="repair",
)

ENTRY_KEYS = vocabulary.keys("file")
ENCODINGS = ("utf-8", "base64", "blobvec")
S_IFMT, S_IFREG, S_IFDIR, S_IFLNK = 0o170000, 0o100000, 0o040000, 0o120000


def check(ctx: Context, key: Any, value: Any) -> None:
    if isinstance(value, Sequence):
        for entry in value.items:
            _check_entry(ctx, entry, None)
    elif isinstance(value, Mapping):
        for path_key, entry in value.pairs:
            _check_path(ctx, path_key)
            _check_entry(ctx, entry, path_key)
    else:
        ctx.report(
            NOT_ARCHIVE,
            (key, value),
            f"files must be a list of entries or a mapping of "
            f"paths to entries, not {describe(value)}",
        )


def _check_path(ctx: Context, node: Any) -> None:
    if not is_str(node) or not node.value:
        return ctx.report(
            ENTRY_FORM, node, f"a file path must be a non-empty string, not {describe(node)}"
        )
    path = node.value
    if path.startswith("/"):
        return ctx.report(
            UNSAFE_PATH,
            node,
            f"file path {path!r} is absolute; archive paths are relative",
            data={"replacement": path.lstrip("/")},
        )
    parts = path.split("/")
    if any(p in (".", "..") for p in parts):
        ctx.report(
            UNSAFE_PATH,
            node,
            f"file path {path!r} contains '.' or '..'; archive paths "
            "may not climb out of the job's directory",
        )


def _check_entry(ctx: Context, entry: Any, path_key: Any) -> None:
    if not isinstance(entry, Mapping):
        return ctx.report(
            ENTRY_FORM,
            (path_key, entry) if path_key is not None else entry,
            f"a file entry must be a mapping with mode and data, not {describe(entry)}",
        )
    required = ("mode",) if path_key is not None else ("mode", "path")
    for k in required:
        if k not in entry:
            ctx.report(
                ENTRY_FORM, anchor_for_missing(entry, path_key), f"file entry is missing {k}"
            )
    for k, v in entry.pairs:
        name = k.value
        if name not in ENTRY_KEYS:
            guess = suggest(name, ENTRY_KEYS)
            ctx.report(
                FIELD_TYPE, k, f"unknown file entry key {ctx.source(k)!r}{did_you_mean(guess)}"
            )
        elif name == "path":
            if path_key is not None:
                ctx.report(FIELD_TYPE, k, "in the dictionary form the path is the key; remove path")
            else:
                _check_path(ctx, v)
        elif name in ("mode", "mtime", "ctime", "size"):
            if not is_int(v) or v.value < 0:
                ctx.report(
                    FIELD_TYPE, (k, v), f"{name} must be a non-negative integer, not {describe(v)}"
                )
        elif name == "encoding":
            if not is_str(v):
                ctx.report(FIELD_TYPE, (k, v), f"encoding must be a string, not {describe(v)}")
            elif v.value not in ENCODINGS:
                guess = suggest(v.value, ENCODINGS)
                ctx.report(
                    ENCODING,
                    v,
                    f"unknown encoding {v.value!r}{did_you_mean(guess)} "
                    f"(encodings: {', '.join(ENCODINGS)})",
                    data={"replacement": guess} if guess else None,
                )
    _check_content(ctx, entry)


def _check_content(ctx: Context, entry: Mapping) -> None:
    """What an entry holds, by its kind (its ``mode``'s file type): nothing for a
    directory, a target path for a symlink, encoded data of its size for a file."""
    kind = _file_kind(ctx, entry.get("mode"))
    anchor = entry.key_node("encoding") or entry.key_node("data") or entry.key_node("size")
    if anchor is None:
        return
    if kind == "directory":
        for k in ("size", "data", "encoding"):
            if k in entry:
                ctx.report(CONTENT, entry.key_node(k), f"a directory entry carries no {k}")
    elif kind == "symlink":
        _check_symlink(ctx, entry)
    else:
        _check_encoded(ctx, entry)


def _file_kind(ctx: Context, mode: Any) -> str | None:
    """The kind of entry (file, directory or symlink) by the type bits of an integer
    ``mode`` (None without one); a mode of no file type is reported, with the fix."""
    if not (is_int(mode) and not isinstance(mode.value, bool)):
        return None
    fmt = mode.value & S_IFMT
    if fmt not in (S_IFREG, S_IFDIR, S_IFLNK) and 0 <= mode.value:
        fixed = (mode.value & 0o7777) | S_IFREG
        ctx.report(
            MODE_TYPE,
            mode,
            f"mode {mode.value} ({oct(mode.value)[2:]} in octal) has "
            "no file type; for a regular file with these permissions write "
            f"{fixed} ({oct(fixed)[2:]})",
            data={"replacement": str(fixed)},
        )
    return "directory" if fmt == S_IFDIR else "symlink" if fmt == S_IFLNK else "file"


def _check_symlink(ctx: Context, entry: Mapping) -> None:
    for k in ("size", "encoding"):
        if k in entry:
            ctx.report(
                CONTENT,
                entry.key_node(k),
                f"a symlink entry carries no {k}; data is its target",
            )
    data = entry.get("data")
    if data is not None and not is_str(data):
        ctx.report(CONTENT, data, "a symlink's data is its target path, a string")


def _check_encoded(ctx: Context, entry: Mapping) -> None:
    """A file's content by its ``encoding``: utf-8 and base64 text with its size, a
    blobvec list, or JSON content (no encoding) without a size."""
    enc_node = entry.get("encoding")
    enc = enc_node.value if is_str(enc_node) else None
    data = entry.get("data")
    has_size, has_data = "size" in entry, data is not None
    if enc in ("utf-8", "base64"):
        if not has_size:
            ctx.report(
                CONTENT,
                entry.key_node("encoding"),
                f"{enc} content needs size (the decoded length in bytes)",
            )
        if not has_data:
            ctx.report(CONTENT, entry.key_node("encoding"), f"{enc} content needs data")
        elif not is_str(data):
            ctx.report(CONTENT, data, f"{enc} data must be a string, not {describe(data)}")
        else:
            _check_size(ctx, entry, enc, data)
    elif enc == "blobvec":
        if not _is_blobvec(data):
            ctx.report(
                CONTENT,
                data if data is not None else entry.key_node("encoding"),
                "blobvec data must be a list of [offset, size, blobref]",
            )
    elif enc is None and has_data and has_size:
        ctx.report(
            CONTENT,
            entry.key_node("size"),
            "data without an encoding is JSON content and "
            "takes no size; add encoding: utf-8 for text, or remove size",
        )


def _check_size(ctx: Context, entry: Mapping, enc: str, data: Scalar) -> None:
    size = entry.get("size")
    if not is_int(size) or isinstance(size.value, bool):
        return
    if enc == "utf-8":
        try:
            length = len(data.value.encode("utf-8"))
        except UnicodeEncodeError:  # a lone surrogate: reported elsewhere
            return
    else:
        try:
            length = len(base64.b64decode(data.value, validate=True))
        except (binascii.Error, ValueError):
            ctx.report(
                CONTENT,
                data,
                "base64 data that does not decode: check for a stray "
                "character or missing '=' padding",
            )
            return
    if size.value != length:
        ctx.report(
            SIZE,
            size,
            f"size {size.value} does not match the data, which is {length} "
            f"byte{'s' if length != 1 else ''} {'of UTF-8' if enc == 'utf-8' else 'decoded'}",
            data={"replacement": str(length)},
        )


def _is_blobvec(data: Any) -> bool:
    if not isinstance(data, Sequence):
        return False
    for item in data.items:
        if not (
            isinstance(item, Sequence)
            and len(item.items) == 3
            and is_int(item.items[0])
            and is_int(item.items[1])
            and isinstance(item.items[2], Scalar)
            and isinstance(item.items[2].value, str)
        ):
            return False
    return True
