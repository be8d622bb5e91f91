"""Runs under ``flux python``: what flux-core's own commands build, for many inputs in
one process, needing no instance. ``argv[1]``:

- ``submit``: each stdin line a JSON list of words; the jobspec `flux submit --dry-run
  WORDS` prints (SubmitCmd: its parser with the CLI plugins' options, then
  ``jobspec_create``).
- ``batch``: each stdin line a JSON string, a script's text, written to ``job.sh`` in a
  scratch directory (the current directory there); the jobspec `flux batch --dry-run
  job.sh` prints (BatchCmd: its directive reader, parser and ``jobspec_create``).

``$JOBSPEC_CLISIDE_CWD`` names the directory to submit from (else a scratch one);
``$JOBSPEC_CLISIDE_ENVIRON`` (JSON) the submitting environment, instead of this one.

Writes one JSON line per input: {"ok": true, "jobspec": obj} or {"ok": false,
"error": str}."""

import io
import json
import os
import sys
import tempfile
from contextlib import redirect_stderr


def _with_plugins(cmd):
    for option in cmd.plugins.options:
        cmd.parser.add_argument(option.name, **option.kwargs)
    return cmd


def submit(words):
    from flux.cli.base import Xcmd
    from flux.cli.submit import SubmitCmd

    cmd = _with_plugins(SubmitCmd("flux submit"))
    args = cmd.parser.parse_args(words)
    # the first copy of --cc/--bcc, as submit_async_with_cc makes it before --dry-run
    # prints it
    first = next(iter(cmd.cc_list(args)))
    xargs = Xcmd(args, cc=first) if isinstance(first, int) else args
    jobspec = cmd.jobspec_create(xargs)
    # then, before --dry-run prints the jobspec, submit_async_with_cc refuses an idset
    if xargs.input:
        from flux.idset import IDset

        try:
            IDset(xargs.input)
        except (ValueError, OSError):
            pass  # a file name
        else:
            raise ValueError("per-task input not supported for submit")
    if args.cc and not args.bcc:
        jobspec.environment["FLUX_JOB_CC"] = str(first)
    return jobspec


def batch(text):
    from flux.cli.batch import BatchCmd

    with open("job.sh", "w", encoding="utf-8") as f:
        f.write(text)
    cmd = _with_plugins(BatchCmd("flux batch"))
    cmd.argv = ["job.sh"]
    cmd.script, args = cmd.process_script(cmd.parser.parse_args(["job.sh"]))
    return cmd.jobspec_create(args)


def main():
    build = {"submit": submit, "batch": batch}[sys.argv[1]]
    # the submitting environment and directory a comparison chooses (JSON; a directory)
    environ = os.environ.get("JOBSPEC_CLISIDE_ENVIRON")
    os.chdir(os.environ.get("JOBSPEC_CLISIDE_CWD") or tempfile.mkdtemp())
    if environ is not None:
        os.environ.clear()
        os.environ.update(json.loads(environ))
    for line in sys.stdin:
        err = io.StringIO()
        try:
            with redirect_stderr(err):
                js = json.loads(build(json.loads(line)).dumps())
            out = {"ok": True, "jobspec": js}
        except SystemExit:
            out = {"ok": False, "error": err.getvalue().strip()[-300:]}
        except Exception as exc:  # noqa: BLE001 - any refusal of Flux's is the answer
            out = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
