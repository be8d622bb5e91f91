"""Site profiles loaded once and reloaded when their files change: what the language
server holds (a profile's TOML files and its R are stat'ed before each use, a few
microseconds; a change, an added or a removed file loads it again)."""

from __future__ import annotations

import os
from pathlib import Path

from jobspec_lsp.site import profile


def _stamp(directory: str, r_path: str | None) -> tuple:
    """What a profile is read from, with each file's change time and size: every file of
    its directory (the TOML, an R beside it, a file not there yet that a broken profile
    names), its ``cli/plugins/*.py``, and its R where that is elsewhere."""
    files: list[tuple] = []
    plugins = os.path.join(directory, "cli", "plugins")
    names = []
    for folder in (directory, plugins):
        try:
            names += [os.path.join(folder, n) for n in sorted(os.listdir(folder))]
        except OSError:
            if folder == directory:
                return ()
    if r_path and os.path.dirname(os.path.abspath(r_path)) != os.path.abspath(directory):
        names.append(r_path)
    for path in names:
        try:
            st = os.stat(path)
        except OSError:
            files.append((path, None))
            continue
        if not os.path.isdir(path):
            files.append((path, st.st_mtime_ns, st.st_size))
    return tuple(files)


class Sites:
    """Directory -> its profile (or the error loading it), kept current."""

    def __init__(self) -> None:
        self.loaded: dict[str, tuple[tuple, profile.Site | None, str | None]] = {}
        self.reloaded = False  # a profile was loaded again since changed() last said

    def get(self, directory: str) -> tuple[profile.Site | None, str | None]:
        """(the profile, None) or (None, why it cannot be loaded)."""
        key = str(Path(directory))
        got = self.loaded.get(key)
        if got is not None and got[0] == _stamp(key, got[1].r_path if got[1] else None):
            return got[1], got[2]
        self.reloaded = self.reloaded or got is not None
        try:
            site, error = profile.load(key), None
        except profile.ProfileError as err:
            site, error = None, str(err)
        self.loaded[key] = (_stamp(key, site.r_path if site else None), site, error)
        return site, error

    def changed(self) -> bool:
        """Whether a loaded profile's files changed since the last call: found stale here
        (and loaded again), or already loaded again by :meth:`get` (a check that asked for
        it first); the next call says False."""
        stale = [
            key
            for key, (stamp, site, _) in self.loaded.items()
            if stamp != _stamp(key, site.r_path if site else None)
        ]
        for key in stale:
            self.get(key)
        again, self.reloaded = self.reloaded, False
        return again
