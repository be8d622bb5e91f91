"""What flux-core's ``Jobspec.apply_options`` writes from ``--setopt``, ``--setattr`` and
``--add-file``, as it writes them, for both builders of :mod:`.build`.

``KEY[=VAL]``: VAL is JSON when it parses, else the string, 1 without ``=``;
``^KEY=FILE`` reads VAL from the JSON file FILE (any number of ``^``). A key's dotted
parts are levels made on demand, any text, empty ones too (``user.`` sets the key ""
under ``user``); a level that is already something other than a mapping refuses the
job. ``--setopt KEY`` is under ``attributes.system.shell.options``; ``--setattr KEY``
under ``attributes.system`` unless it starts with ``user.``, ``system.`` or
``attributes.``, or with ``.`` (under ``attributes``).

Files are read only when the caller allows it (see :func:`may_read`).
"""

from __future__ import annotations

import base64
import json
import os
import stat

from jobspec_lsp.fluxcli import values
from jobspec_lsp.fluxcli.argv import Given
from jobspec_lsp.fluxcli.argv import brief as _brief
from jobspec_lsp.fluxcli.values import Refused

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


def may_read(allowed: bool | None, option: str, path: str) -> bool:
    """Whether to read the file an option names: ``allowed`` True reads it, None leaves
    it out (a check that needs the rest of the jobspec, never the file), False refuses
    (a view that must not read what the editor did not open, and says so)."""
    if allowed:
        return True
    if allowed is None:
        return False
    raise Refused(
        f"--{option} {_brief(path)}: the file is read when the job is submitted; this "
        "view does not read files the editor has not opened (jobspec new --from-batch "
        "reads it)",
        ours=True,
    )


def keyval(option: str, item: str, cwd: str, read_files: bool | None) -> tuple[str, object] | None:
    """(key, value) of ``--setopt``/``--setattr ITEM`` as flux-core reads it; None when
    the value is in a file that is left out (``read_files`` None)."""
    key, sep, raw = item.partition("=")
    if not key.startswith("^"):
        return key, values._keyval_value(f"--{option}", key, sep, raw)
    key = key.lstrip("^")
    if not sep:
        raise Refused(f"--{option} {_brief(item)}: ^KEY reads the value from a file: ^KEY=FILE")
    if not may_read(read_files, option, raw):
        return None
    try:
        with open(os.path.join(cwd, raw), encoding="utf-8") as f:
            return key, json.load(f)
    except (OSError, UnicodeDecodeError) as err:
        why = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
        raise Refused(f"--{option} {_brief(item)}: {why}: {_brief(raw)}") from None
    except (ValueError, RecursionError) as err:
        raise Refused(f"--{option} {_brief(item)}: {_brief(raw)} is not JSON: {err}") from None


def set_tree(
    tree: dict[str, Any], key: str, value: object, shown: str, g: Given | None = None
) -> None:
    """``tree[a][b][c] = value`` for the key ``a.b.c``, levels made on demand, as Flux's
    set_treedict does; :class:`Refused` where a level is not a mapping."""
    parts = key.split(".")
    node = tree
    for part in parts[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise Refused(
                f"failed to set {shown} to {_brief(json.dumps(value))}: {part} is already "
                f"{_brief(json.dumps(node))}, not a mapping",
                g,
            )
    node[parts[-1]] = value


def setopt_item(
    options: dict[str, Any], item: str, cwd: str, read_files: bool | None, g: Given | None = None
) -> None:
    """``-o/--setopt ITEM`` into the job shell's options."""
    got = keyval("setopt", item, cwd, read_files)
    if got is not None:
        key, value = got
        set_tree(options, key, value, f"attributes.system.shell.options.{key}", g)


def attribute_key(key: str) -> str:
    """``--setattr KEY``'s place in the jobspec, from its top (``attributes.…``)."""
    if key.startswith("."):
        return "attributes" + key
    if key.startswith("attributes."):
        return key
    return "attributes." + (key if key.startswith(("user.", "system.")) else "system." + key)


def setattr_item(
    js: dict[str, Any], item: str, cwd: str, read_files: bool | None, g: Given | None = None
) -> None:
    """``-S/--setattr ITEM`` into the jobspec ``js``."""
    got = keyval("setattr", item, cwd, read_files)
    if got is not None:
        key, value = got
        where = attribute_key(key)
        set_tree(js, where, value, where, g)


def add_file(system: dict[str, Any], arg: str, cwd: str, read_files: bool | None) -> None:
    """``--add-file [NAME[:PERMS]=]PATH`` or ``NAME=TEXT`` (a text holding a line break,
    ``\\n`` read as one) into ``system["files"]``, as flux-core's jobspec_add_file does:
    a text is the file's content (utf-8, mode PERMS or 0600); a path is read (utf-8, or
    base64 when it is not utf-8), taking its size and mode from the file."""
    name, _, data = arg.replace("\\n", "\n").partition("=")
    perms = None
    if not data:
        if "\n" in name:
            raise Refused("--add-file: file name missing")
        data = name
        name = os.path.basename(data)
    else:
        base, _, permstr = name.partition(":")
        try:
            perms = int(permstr, base=8)
            name = base
        except ValueError:
            pass  # as Flux: the ':' is part of the name
    files = system.setdefault("files", {})
    mode = (0o600 if perms is None else perms) | stat.S_IFREG
    if "\n" in data:
        files[name] = {"mode": mode, "data": data, "encoding": "utf-8"}
        return
    if not may_read(read_files, "add-file", data):
        return
    path = os.path.join(cwd, data)
    try:
        st = os.stat(path)
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as err:
        raise Refused(f"--add-file={_brief(arg)}: {err.strerror}: {_brief(data)}") from None
    ref: dict[str, Any] = {"mode": st.st_mode, "size": st.st_size}
    try:
        ref["data"], ref["encoding"] = raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        ref["data"], ref["encoding"] = base64.b64encode(raw).decode("ascii"), "base64"
    files[name] = ref


def resources_json(path: str, cwd: str, read_files: bool | None) -> Any:
    """``--resources-json FILE`` as Flux's shape plugin reads it: the file's JSON, its
    ``resources`` when it is a mapping (a mapping without one refuses the job);
    None when the file is left out."""
    if not may_read(read_files, "resources-json", path):
        return None
    try:
        with open(os.path.join(cwd, path), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, UnicodeDecodeError) as err:
        why = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
        raise Refused(f"--resources-json {_brief(path)}: {why}") from None
    except (ValueError, RecursionError) as err:
        raise Refused(f"--resources-json {_brief(path)}: not JSON: {err}") from None
    if isinstance(data, dict):
        if "resources" not in data:
            raise Refused(
                f"--resources-json {_brief(path)}: a mapping without 'resources' (Flux "
                "takes the file's resources list, or a mapping holding one)"
            )
        return data["resources"]
    return data
