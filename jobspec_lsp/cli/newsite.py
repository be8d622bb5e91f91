"""`jobspec new` against a site profile (--site, or ``site`` in the configuration): the
site's own flux submit options (its CLI plugins), what the site says of the jobspec the
command line builds (JS65x, each led by the option that causes it), and a note for each
plugin option given. Loaded through cli/new.py's ``WITH_SITE`` entry, only with a site
(the profile's reader and the site's rules load tomllib and the dataclass machinery)."""

from __future__ import annotations

from jobspec_lsp.cli.sites import load_site, plugin_options
from jobspec_lsp.convert.common import Change
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.jobspec.tree import to_python
from jobspec_lsp.record import Record
from jobspec_lsp.rules import site as site_rules


class SiteCheck(Record):
    """The site profile in a directory (loaded once per run) and its plugins' options."""

    __slots__ = ("site", "extra")

    def __init__(self, directory: str) -> None:
        self.site = load_site(directory)  # None: broken (said once), built without it
        # the site's own flux submit options
        self.extra = plugin_options(self.site) if self.site is not None else None

    def check(self, argv: list[str], conv) -> None:
        """The site's findings on the jobspec ``conv`` holds (built from ``argv``) added
        to its blockers, a note for each plugin option given to its changes."""
        if self.site is None:
            return
        conv.blockers.extend(site_findings(argv, conv.text or "", self.site))
        conv.changes.extend(plugin_notes(argv, self.extra or {}))


def plugin_notes(argv: list[str], extra: dict) -> list:
    """A note for each of the site's plugin options the command line gives: the plugin
    applies it when flux submit runs (it is read, not run, here)."""
    names = {f"--{o.long}" for o in extra.get("submit", ())}
    given = [a.split("=", 1)[0] for a in argv if a.split("=", 1)[0] in names]
    return [
        Change(f"{n}: the site's CLI plugin applies it when flux submit runs; this jobspec "
               "is without it", 0, 0)
        for n in dict.fromkeys(given)
    ]  # fmt: skip


def site_findings(argv: list[str], text: str, site) -> list:
    """JS65x of the jobspec ``text`` (JSON or YAML) `jobspec new ARGV` built, each
    message led by the option that causes it."""
    doc = parse(text, "json" if text.lstrip().startswith("{") else "yaml")
    starts = [sum(len(w) + 1 for w in argv[:k]) for k in range(len(argv))]
    out = []
    for d in site_rules.command_line_diagnostics(argv, to_python(doc.root), site):
        k = max((i for i, s in enumerate(starts) if s <= d.start), default=0)
        word = argv[k] if argv else ""
        if k and not word.startswith("-") and argv[k - 1].startswith("-"):
            word = f"{argv[k - 1]} {word}"
        lead = f"{word}: " if d.end - d.start < sum(len(w) + 1 for w in argv) - 1 else ""
        out.append(type(d)(d.code, d.severity, lead + d.message, d.start, d.end, d.data))
    return out
