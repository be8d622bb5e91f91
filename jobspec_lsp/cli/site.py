"""`jobspec site show|import|plugin`: a site profile summarised (node types, queues and
their limits, its CLI plugins' options), captured from a running instance, or the path
of the job-ingest validator plugin (docs/site.md)."""

from __future__ import annotations

import importlib.util
import sys

from jobspec_lsp.site import cliplugins, importer, profile

INGEST = "jobspec_lsp.site.ingest"  # the validator plugin Flux loads by path


def run(args) -> int:
    if args.action == "plugin":  # its path, found without running it (Flux runs it)
        print(importlib.util.find_spec(INGEST).origin)  # type: ignore[union-attr]
        return 0
    if not args.directory:
        print(f"jobspec site {args.action}: error: which directory (DIR)?", file=sys.stderr)
        return 2
    if args.action == "import" and not _captured(args):
        return 2  # as every command's usage and configuration errors
    try:
        site = profile.load(args.directory)
    except profile.ProfileError as err:
        print(f"jobspec site {args.action}: error: {err}", file=sys.stderr)
        return 2  # a broken profile is a configuration error, as in `check --site`
    sys.stdout.write(profile.summary(site))
    _plugins(site.directory)
    return 0


def _captured(args) -> bool:
    """The profile captured from the instance FLUX_URI names, each file written said."""
    try:
        written = importer.capture(args.directory, flux=args.flux, force=args.force)
    except importer.CaptureError as err:
        print(f"jobspec site import: error: {err}", file=sys.stderr)
        return False
    for path in written:
        print(f"wrote {path}", file=sys.stderr)
    return True


def _plugins(directory) -> None:
    """The options the site's CLI plugins add to flux submit, and what is wrong with them."""
    found = cliplugins.scan(directory)
    for o in found.options:
        value = f"={o.metavar}" if o.takes_value else ""
        print(f"plugin option {o.name}{value} ({', '.join(o.commands)}): {o.help or o.plugin}")
    for p in found.problems:
        print(f"note: {p}")
