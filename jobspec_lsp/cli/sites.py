"""The site profile a command checks against (`check --site`, `new --site`, ``site`` in
the configuration): read once per run, a broken one said once, with its file and line.

Loaded through the entry ``SITE`` of the commands that take one (the profile's reader
loads tomllib and the dataclass machinery: only where a site is named)."""

from __future__ import annotations

import sys

from jobspec_lsp.site import cliplugins, profile

_sites: dict[str, object] = {}
_broken_sites: set[str] = set()  # profiles that could not be loaded: `check` exits 2


def load_site(directory: str | None):
    """The site profile in ``directory`` (None: none), loaded once per run. A broken one
    is said once, with its file and line, and is None: every check that does not need
    the site goes on, and ``check`` exits 2."""
    if not directory:
        return None
    if directory in _broken_sites:
        return None
    if directory not in _sites:
        try:
            _sites[directory] = profile.load(directory)
        except profile.ProfileError as err:
            print(
                f"jobspec: error: site profile: {err} (checked without the site)",
                file=sys.stderr,
            )
            _broken_sites.add(directory)
            return None
        for p in cliplugins.for_site(_sites[directory])[1]:
            print(f"jobspec: warning: site profile: {p}", file=sys.stderr)
    return _sites[directory]


def plugin_options(site) -> dict:
    """The site's own flux submit options (its CLI plugins), by command."""
    return cliplugins.for_site(site)[0]
