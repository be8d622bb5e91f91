"""Site profiles loaded once and reloaded when their files change: what the language
server holds (a profile's TOML files and its R are stat'ed before each use, a few
microseconds; a change, an added or a removed file loads it again)."""

from __future__ import annotations

import os
from pathlib import Path

from jobspec_lsp.site import profile


def _stamp(directory: str, r_path: str | None) -> tuple:
    files: list[tuple] = []
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".toml"))
    except OSError:
        return ()
    for name in [*names, r_path]:
        if name is None:
            continue
        path = os.path.join(directory, name)
        try:
            st = os.stat(path)
        except OSError:
            files.append((path, None))
            continue
        files.append((path, st.st_mtime_ns, st.st_size))
    return tuple(files)


class Sites:
    """Directory -> its profile (or the error loading it), kept current."""

    def __init__(self) -> None:
        self.loaded: dict[str, tuple[tuple, profile.Site | None, str | None]] = {}

    def get(self, directory: str) -> tuple[profile.Site | None, str | None]:
        """(the profile, None) or (None, why it cannot be loaded)."""
        key = str(Path(directory))
        got = self.loaded.get(key)
        if got is not None and got[0] == _stamp(key, got[1].r_path if got[1] else None):
            return got[1], got[2]
        try:
            site, error = profile.load(key), None
        except profile.ProfileError as err:
            site, error = None, str(err)
        self.loaded[key] = (_stamp(key, site.r_path if site else None), site, error)
        return site, error

    def changed(self) -> bool:
        """Whether a loaded profile's files changed since it was loaded (each changed one
        is loaded again here, so the next call says False)."""
        stale = [
            key
            for key, (stamp, site, _) in self.loaded.items()
            if stamp != _stamp(key, site.r_path if site else None)
        ]
        for key in stale:
            self.get(key)
        return bool(stale)
