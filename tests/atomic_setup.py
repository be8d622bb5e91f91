"""Setups the tests keep between runs (psij-python's virtualenv, npm packages), made
atomic: each is built in a temporary folder beside its final place, marked complete
last, and renamed into place whole. A half-built one is never taken as ready (a folder
in the final place without the marker, from a build that stopped or from before this
module, is removed and made again); a failed build leaves nothing in the final place;
concurrent builders (two test runs) wait for each other instead of building over each
other. scripts/test and scripts/setup-vscode-e2e do the same in shell."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

MARKER = ".jobspec-complete"


def is_complete(path: Path) -> bool:
    return (path / MARKER).is_file()


def lock_file(final: Path) -> Path:
    """The lock builders of ``final`` take, outside the checkout (scripts/test's too)."""
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    locks = cache / "jobspec-lsp" / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256(str(final.absolute()).encode()).hexdigest()[:16]
    return locks / f"{final.name}-{key}.lock"


def build_once(final: Path, build: Callable[[Path], None]) -> Path:
    """``final``, made by ``build(tmp)`` unless it is complete already. ``tmp`` is an
    empty folder beside ``final`` (same file system, so the rename is atomic); ``build``
    fills it or raises, and whatever it raises propagates with nothing left behind."""
    if is_complete(final):
        return final
    final.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_file(final), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another builder's build ends first
        if is_complete(final):
            return final
        # no one else builds now: what an earlier builder left (killed mid-way) goes
        for left in final.parent.glob(f".{final.name}.tmp-*"):
            shutil.rmtree(left, ignore_errors=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}.tmp-", dir=final.parent))
        tmp.chmod(0o755)  # mkdtemp's 0700 would stay with the final folder
        try:
            build(tmp)
            (tmp / MARKER).write_text("complete\n")
            if final.exists() or final.is_symlink():
                # incomplete: out of the way in one step, then removed
                stale = Path(tempfile.mkdtemp(prefix=f".{final.name}.tmp-old-", dir=final.parent))
                os.rename(final, stale / "old")
                shutil.rmtree(stale, ignore_errors=True)
            os.rename(tmp, final)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
    return final


def npm_install_into(tmp: Path, package_dir: Path, args: list[str], timeout: int = 600):
    """Run ``npm ARGS`` on ``package_dir``'s package.json and package-lock.json in a
    scratch folder beside ``tmp``, and move the node_modules it makes into ``tmp``
    (their .bin links are relative: they keep working under the final name)."""
    work = Path(tempfile.mkdtemp(prefix=f"{tmp.name}.npm-", dir=tmp.parent))
    try:
        for name in ("package.json", "package-lock.json"):
            if (package_dir / name).exists():
                shutil.copy2(package_dir / name, work / name)
        proc = subprocess.run(
            ["npm", *args], cwd=work, timeout=timeout, capture_output=True, text=True
        )
        if proc.returncode != 0:
            raise RuntimeError(f"npm {' '.join(args)} failed:\n{proc.stderr[-3000:]}")
        for child in (work / "node_modules").iterdir():
            os.rename(child, tmp / child.name)
    finally:
        shutil.rmtree(work, ignore_errors=True)
