"""Capture a site profile from a running Flux instance (the core of `jobspec site import`).

Two Flux commands are asked, against the instance FLUX_URI names (as any flux command is):
``flux config get`` (the instance's merged configuration, as JSON) and ``flux resource R``
(its whole R, down nodes included). From them a profile directory gets two files:

- ``site.toml``: the tables a profile uses — ``[resource]``, ``[queues.*]``, ``[policy]``,
  ``[ingest]`` — with ``[resource] path = "R.json"`` in place of the cluster's own path.
  ``resource.config`` (a host list R.json replaces) and ``resource.scheduling`` (a JSON file
  on the cluster) are left out; other ``[resource]`` keys (noverify, exclude, ...) are kept.
- ``R.json``: the R, as Flux printed it.

The TOML is written by the small writer here (stdlib ``tomllib`` reads TOML but writes none).
Nothing is written unless both commands succeed, nothing is overwritten without ``force``, and
each file is replaced atomically.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import re
import secrets
import shlex
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

TOML_NAME = "site.toml"
R_NAME = "R.json"
# the tables of a profile (see profile.py); the rest of a cluster's config stays there
TABLES = ("resource", "queues", "policy", "ingest")
# [resource] keys naming things on the cluster that R.json replaces
_DROPPED_RESOURCE_KEYS = ("config", "scheduling")
_TIMEOUT = 120.0  # seconds for one flux command


class CaptureError(Exception):
    """Why a capture could not be made: one sentence for the user, no traceback."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# ---------------------------------------------------------------------------------------
# A TOML writer: tables (as [a.b] headers), strings, ints, floats, bools, arrays (of
# scalars, arrays or inline tables). Whatever tomllib reads back is equal to what went in.

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f]')
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_INT64 = (-(2**63), 2**63 - 1)


def _escape_one(m: re.Match[str]) -> str:
    ch = m.group()
    return _ESCAPES.get(ch) or f"\\u{ord(ch):04X}"


def toml_string(text: str) -> str:
    """A TOML basic string (double-quoted) holding ``text``."""
    if _SURROGATE.search(text):
        raise ValueError(f"{text!r} holds a lone surrogate, which TOML cannot hold")
    return '"' + _NEEDS_ESCAPE.sub(_escape_one, text) + '"'


def toml_key(key: object) -> str:
    """A key as TOML spells it: bare when it can be, else quoted (``"a.b"``, ``""``)."""
    if not isinstance(key, str):
        raise TypeError(f"a TOML key must be a string, not {type(key).__name__} ({key!r})")
    return key if _BARE_KEY.fullmatch(key) else toml_string(key)


def toml_value(value: object) -> str:
    """A value written inline (a table inside an array becomes an inline table)."""
    if isinstance(value, bool):  # before int: a bool is an int in Python
        return "true" if value else "false"
    if isinstance(value, int):
        if not _INT64[0] <= value <= _INT64[1]:
            raise ValueError(f"{value} is out of TOML's integer range (64 bits)")
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)  # 1.0, 1e-05, 1e+16: each a TOML float
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"TOML has no value for {type(value).__name__} ({value!r})")


def _table(path: list[str], table: Mapping[str, Any], out: list[str]) -> None:
    plain = [(k, v) for k, v in table.items() if not isinstance(v, Mapping)]
    subtables = [(k, v) for k, v in table.items() if isinstance(v, Mapping)]
    # a header is needed for the table's own keys, or to make an empty table exist; a table
    # holding only tables is made by their headers
    if path and (plain or not subtables):
        if out:
            out.append("")
        out.append("[" + ".".join(toml_key(k) for k in path) + "]")
    for k, v in plain:
        out.append(f"{toml_key(k)} = {toml_value(v)}")
    for k, v in subtables:
        toml_key(k)  # refuse a non-string key before writing any header with it
        _table([*path, k], v, out)


def toml_dumps(data: Mapping[str, Any]) -> str:
    """``data`` (a table of tables and values) as a TOML document. ValueError/TypeError
    for what TOML cannot hold (None, a lone surrogate, an integer over 64 bits)."""
    out: list[str] = []
    _table([], data, out)
    return "\n".join(out) + "\n" if out else ""


# ---------------------------------------------------------------------------------------
# Asking Flux

Runner = Callable[..., "subprocess.CompletedProcess[str]"]


def _last_line(text: str) -> str:
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return lines[-1] if lines else "(no message on stderr)"


def _ask(run: Runner, argv: list[str]) -> str:
    """The standard output of one flux command; CaptureError when it cannot run or fails."""
    shown = shlex.join(argv)
    try:
        proc = run(
            argv,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            check=False,
            timeout=_TIMEOUT,
        )
    except FileNotFoundError:
        raise CaptureError(
            f"{argv[0]}: command not found (is Flux installed? give the path of its flux command)"
        ) from None
    except subprocess.TimeoutExpired:
        raise CaptureError(f"`{shown}` did not answer in {_TIMEOUT:g} s") from None
    except OSError as err:
        raise CaptureError(f"cannot run `{shown}`: {err.strerror or err}") from None
    if proc.returncode != 0:
        last = _last_line(proc.stderr)
        if "flux_open" in last and not os.environ.get("FLUX_URI"):
            last += (
                " — no Flux instance to ask: run it inside one (`flux alloc`, `flux start`, a "
                "job) or name one with FLUX_URI=... (`flux uri JOBID` or the system's "
                "local:///run/flux/local)"
            )
        raise CaptureError(f"`{shown}` failed (exit {proc.returncode}): {last}")
    return proc.stdout or ""


def _json_object(text: str, shown: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError:
        raise CaptureError(f"`{shown}` printed no JSON: {_last_line(text)[:200]}") from None
    if not isinstance(data, dict):
        raise CaptureError(f"`{shown}` printed JSON that is not an object")
    return data


def profile_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """The tables of a profile from an instance's merged config, with ``resource.path``
    pointing at R.json."""
    out: dict[str, Any] = {}
    resource = config.get("resource", {})
    if not isinstance(resource, Mapping):
        raise CaptureError("the instance's [resource] is not a table")
    kept = {k: v for k, v in resource.items() if k != "path" and k not in _DROPPED_RESOURCE_KEYS}
    out["resource"] = {"path": R_NAME, **kept}
    for name in TABLES[1:]:
        if name in config:
            out[name] = config[name]
    return out


def _header(uri: str | None, when: datetime.datetime) -> str:
    source = (
        f"the Flux instance at FLUX_URI={toml_string(uri)}"
        if uri
        else "the default Flux instance (FLUX_URI was not set)"
    )
    stamp = when.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    return (
        f"# A site profile captured by `jobspec site import` from {source}\n"
        f"# on {stamp}: `flux config get` ({', '.join(TABLES)}) and `flux resource R` "
        f"(in {R_NAME}).\n\n"
    )


# ---------------------------------------------------------------------------------------
# Writing


def _write_atomic(path: Path, text: str) -> None:
    """``text`` into ``path`` through a temporary file in the same directory and
    os.replace, so a reader sees the old file or the new one, never a part."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def capture(
    directory: str | os.PathLike[str],
    flux: str = "flux",
    run: Runner = subprocess.run,
    force: bool = False,
) -> list[Path]:
    """Write the site profile of the running Flux instance (the one FLUX_URI names) into
    ``directory`` (made if missing): ``site.toml`` and ``R.json``; return their paths.

    ``flux``: the flux command; ``run``: runs a command as subprocess.run does (a test gives
    its own). CaptureError, before anything is written, when site.toml or R.json already
    exists and ``force`` is false, when the directory holds other ``*.toml`` files (a profile
    merges every one), when flux cannot be run or a flux command fails (the command and the
    last line of its stderr), or when what Flux printed cannot be written as a profile."""
    directory = Path(directory)
    targets = [directory / TOML_NAME, directory / R_NAME]
    if directory.exists() and not directory.is_dir():
        raise CaptureError(f"{directory}: not a directory")
    if not force:
        there = [p.name for p in targets if p.exists() or p.is_symlink()]
        if there:
            raise CaptureError(
                f"{directory}: {' and '.join(there)} already "
                f"{'exists' if len(there) == 1 else 'exist'} (--force overwrites)"
            )
    if directory.is_dir():
        others = sorted(p.name for p in directory.glob("*.toml") if p.name != TOML_NAME)
        if others:
            raise CaptureError(
                f"{directory}: holds {', '.join(others)}, which a profile would merge with the "
                f"captured {TOML_NAME}; capture into an empty directory"
            )

    config_argv = [flux, "config", "get"]
    r_argv = [flux, "resource", "R"]
    config = _json_object(_ask(run, config_argv), shlex.join(config_argv))
    r_text = _ask(run, r_argv)
    r = _json_object(r_text, shlex.join(r_argv))
    execution = r.get("execution")
    if not isinstance(execution, dict) or not isinstance(execution.get("R_lite"), list):
        raise CaptureError(f"`{shlex.join(r_argv)}` printed no RFC 20 R (no execution.R_lite)")

    tables = profile_config(config)
    try:
        body = toml_dumps(tables)
    except (TypeError, ValueError) as err:
        raise CaptureError(f"the instance's config cannot be written as TOML: {err}") from None
    text = _header(os.environ.get("FLUX_URI"), datetime.datetime.now(datetime.timezone.utc))
    text += body

    try:
        directory.mkdir(parents=True, exist_ok=True)
        # R first: site.toml never names an R.json that is not there yet
        _write_atomic(targets[1], r_text.strip() + "\n")
        _write_atomic(targets[0], text)
    except OSError as err:
        where = err.filename or directory
        raise CaptureError(f"{where}: cannot write: {err.strerror or err}") from None
    return targets
