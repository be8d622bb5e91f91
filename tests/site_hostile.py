"""Hostile site profiles, made on disk: what a fuzzer (and a careless copy) leaves in a
profile's directory. Each maker damages a copy of examples/site and returns the name of
the file a correct message must name. Shared by the CLI and language-server tests."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

from helpers import REPO

SITE = REPO / "examples" / "site"


def _dangling(d: Path) -> str:
    (d / "z.toml").symlink_to(d / "nothere.toml")
    return "z.toml"


def _directory(d: Path) -> str:
    (d / "x.toml").mkdir()
    return "x.toml"


def _fifo_toml(d: Path) -> str:
    os.mkfifo(d / "y.toml")
    return "y.toml"


def _fifo_r(d: Path) -> str:
    r = d / "R.json"
    r.unlink()
    os.mkfifo(r)
    return "R.json"


def _r_directory(d: Path) -> str:
    r = d / "R.json"
    r.unlink()
    r.mkdir()
    return "R.json"


def _deep_toml(d: Path) -> str:
    depth = random.Random(len(str(d))).randint(201, 900)
    (d / "zz.toml").write_text("x = " + "[" * depth + "]" * depth + "\n")
    return "zz.toml"


def _deep_r(d: Path) -> str:
    depth = random.Random(len(str(d))).randint(201, 3000)
    (d / "R.json").write_text("[" * depth + "]" * depth)
    return "R.json"


def _not_utf8(d: Path) -> str:
    (d / "latin.toml").write_bytes("# caf\xe9\n".encode("latin-1"))
    return "latin.toml"


def _binary(d: Path) -> str:
    (d / "junk.toml").write_bytes(bytes(random.Random(7).randrange(256) for _ in range(4096)))
    return "junk.toml"


def _huge_r(d: Path) -> str:
    r = d / "R.json"
    r.unlink()
    with open(r, "wb") as fh:  # sparse: no disk used
        fh.truncate(65 * 1024 * 1024)
    return "R.json"


def _symlink_loop(d: Path) -> str:
    (d / "loop.toml").symlink_to(d / "loop.toml")
    return "loop.toml"


MAKERS = {
    "dangling-symlink": _dangling,
    "directory-named-toml": _directory,
    "fifo-toml": _fifo_toml,
    "fifo-r": _fifo_r,
    "r-is-a-directory": _r_directory,
    "deep-toml": _deep_toml,
    "deep-r-json": _deep_r,
    "not-utf8": _not_utf8,
    "binary-junk": _binary,
    "huge-r": _huge_r,
    "symlink-loop": _symlink_loop,
}


def make(tmp: Path, name: str) -> tuple[Path, str]:
    """A copy of the example profile damaged by maker ``name``: (directory, the file a
    message must name)."""
    site = tmp / f"site-{name}"
    shutil.copytree(SITE, site)
    return site, MAKERS[name](site)


def _fifo_plugin(d: Path) -> str:
    os.mkfifo(d / "cli" / "plugins" / "hang.py")
    return "hang.py"


# damage that leaves the profile usable: a site's CLI plugin Flux cannot import is said
# (Flux's commands fail on it), the profile's checks go on
PLUGIN_MAKERS = {"fifo-plugin": _fifo_plugin}
