"""jobspec-lsp site checks: refuse, with the reason, a job this site cannot run

A job-ingest validator plugin for Flux (0.88 and later). Load it by path::

    [ingest.validator]
    plugins = ["jobspec", "feasibility", "/path/to/jobspec_lsp/site/ingest.py"]

(``jobspec site plugin`` prints the path), or live, naming every plugin (the list
replaces the configured one)::

    flux module reload job-ingest \\
        validator-plugins=jobspec,feasibility,/path/to/jobspec_lsp/site/ingest.py

It reads the instance's own configuration (queues, limits, defaults) and resources,
and checks each job as ``jobspec check --site`` does: an infeasible job is refused with
what it asks and what the queue's nodes have, where Flux's feasibility check says only
"Unsatisfiable request". By default it refuses only what this Flux refuses anyway (so it
never turns away a job Flux would run); with ``strict = true`` it also refuses a job that
would wait forever (a site without the feasibility validator accepts those)::

    [ingest.validator.jobspec-lsp]
    strict = true

Flux runs validator plugins under its own Python, which has none of jobspec-lsp's
dependencies: this file and the modules it loads use the standard library and Flux's
own package only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# the package this file belongs to, found beside it (Flux loads this file by path)
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.append(_ROOT)  # appended: never shadows a module Flux's Python has

from jobspec_lsp.site import checks, profile  # noqa: E402 - after the path is known

try:  # Flux's own package: there only when Flux runs this file
    from flux.job.validator import ValidatorPlugin
except ImportError:  # pragma: no cover - imported outside Flux (the tests, the docs)

    class ValidatorPlugin:  # type: ignore[no-redef]
        def __init__(self, parser):
            pass


try:  # the instance's own resources, read when no profile directory is named
    from flux.resource import ResourceSet, resource_list
except ImportError:  # pragma: no cover - imported outside Flux (the tests, the docs)
    ResourceSet = resource_list = None


ERRNO = {checks.QUEUE: 1, checks.FEASIBILITY: 19, checks.LIMIT: 22, checks.NEVER: 19}
TABLE = "ingest.validator.jobspec-lsp"
READ = ("queues", "policy", "ingest")  # the tables the checks read ([resource]: R itself)


def verdict(site: profile.Site, jobspec: dict, strict: bool = False) -> tuple[int, str] | None:
    """(errno, message) refusing ``jobspec`` on ``site``, or None to accept it."""
    found = [f for f in checks.check(site, jobspec) if strict or f.stage != checks.NEVER]
    if not found:
        return None
    errno = max(ERRNO[f.stage] for f in found)
    return errno, "jobspec-lsp: " + "; ".join(f.message for f in found)


class Validator(ValidatorPlugin):
    def __init__(self, parser):
        super().__init__(parser)
        parser.add_argument(
            "--jobspec-lsp-strict",
            action="store_true",
            help="also refuse jobs that would wait forever",
        )
        self.site: profile.Site | None = None
        self.strict = False

    def configure(self, args):
        try:
            self._configure(args)
        except Exception as err:  # noqa: BLE001 - a worker that dies fails every job
            # (Errno 71, "worker unexpectedly exited"): check nothing, and say why
            self.site = None
            print(f"jobspec-lsp: site checks off: {err}", file=sys.stderr)

    def _configure(self, args):
        handle = self.flux
        own = handle.conf_get(TABLE, default={}) or {}
        self.strict = bool(args.jobspec_lsp_strict or own.get("strict"))
        where = own.get("profile")
        if where:  # a profile directory instead of the instance's own configuration
            self.site = profile.load(where)
            return
        whole = handle.conf_get() or {}
        config = {k: whole[k] for k in READ if k in whole}  # the rest is not read here
        listed = resource_list(handle).get()
        rset = ResourceSet()
        rset.add(listed["all"])
        self.site = profile.from_config(config, r=json.loads(rset.encode()))

    def validate(self, args):
        if self.site is None:
            return None
        try:
            return verdict(self.site, args.jobspec, self.strict)
        except Exception as err:  # noqa: BLE001 - a bug here must not kill the worker
            # a worker that dies fails every submission (Errno 71): accept the job and say so
            print(f"jobspec-lsp: cannot check the job: {err!r}", file=sys.stderr)
            return None
