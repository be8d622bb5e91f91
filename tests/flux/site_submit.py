"""Runs under ``flux python`` inside a site instance (see siteside.py): submits each
request and records Flux's verdict.

``flux python site_submit.py IN OUT TIMEOUT``: IN has one JSON request a line, either
``{"argv": [...]}`` (the words after ``flux submit``) or ``{"jobspec": {...}}`` (sent as
its JSON encoding, as is). OUT gets one JSON verdict a line, in the same order:

- ``{"accepted": true, "jobid": N, "stage": null}``
- ``{"accepted": false, "errno": N, "message": str, "stage": S}``: the message is Flux's
  own text (what ``flux submit`` prints after ``[Errno N]``). ``stage`` is ``"cli"`` (the
  command line was refused before anything was sent; ``errno`` is then null and
  ``printed`` holds the line ``flux submit`` prints), ``"ingest"`` (frobnicator or
  validator), ``"limit"`` (job-manager policy limits) or ``"queue"`` (job-manager queue
  checks: a queue that is not valid or is disabled).

Command lines are turned into jobspecs by flux-core's own ``SubmitCmd`` (its parser with
the CLI plugins' options, then ``jobspec_create``), in this one process. Every job is
submitted with urgency 0 (whatever ``--urgency`` says, once Flux's check of its value
has passed) and without flags, so ingest's frobnicator and validators always run (a
``--flags=novalidate`` is not passed on). All submissions are in flight together, at
most WINDOW at a time, on the reactor; exit status 3 if some got no answer in TIMEOUT s
(their lines are then ``null``).
"""

import io
import json
import sys
from contextlib import redirect_stderr, redirect_stdout

WINDOW = 128


class Refused(Exception):
    """The command line is refused by ``flux submit`` itself."""

    def __init__(self, message, printed):
        super().__init__(message)
        self.message = message
        self.printed = printed


def _cmd():
    from flux.cli.submit import SubmitCmd

    cmd = SubmitCmd("flux submit")
    for option in cmd.plugins.options:  # as run_command() does
        cmd.parser.add_argument(option.name, **option.kwargs)
    return cmd


def _check_submit_options(args):
    """The checks of SubmitBulkCmd.submit_async_with_cc / MiniCmd.submit_async that come
    after jobspec_create and can refuse the command line."""
    from flux.idset import IDset

    if args.input:
        try:
            IDset(args.input)
        except (ValueError, OSError):
            pass
        else:
            # LOGGER.error(...) then sys.exit(1)
            raise Refused(
                "per-task input not supported for submit",
                "flux: ERROR: per-task input not supported for submit",  # base.LOGGER
            )
    for tmp in args.flags or []:
        for flag in tmp.split(","):
            if flag not in ("debug", "waitable", "novalidate"):
                raise ValueError("--flags: Unknown flag " + flag)
    if args.urgency not in ("default", "hold", "expedite"):
        int(args.urgency)


def jobspec_from_argv(words):
    """The jobspec (JSON text) ``flux submit WORDS`` sends (its first copy if --cc/--bcc),
    or Refused."""
    from flux import debugged
    from flux.cli import base

    debugged.set_mpir_being_debugged(0)  # --debug-emulate sets it process-wide
    cmd = _cmd()
    err, out = io.StringIO(), io.StringIO()
    try:
        with redirect_stderr(err), redirect_stdout(out):
            args = cmd.parser.parse_args(words)
            if args.help is not None or args.list_plugins:
                raise Refused("help requested: nothing submitted", "")
            cclist = cmd.cc_list(args)
            first = next(iter(cclist))
            xargs = base.Xcmd(args, cc=first) if isinstance(first, int) else args
            jobspec = cmd.jobspec_create(xargs)
            if args.cc and not args.bcc:
                jobspec.environment["FLUX_JOB_CC"] = str(first)
            _check_submit_options(xargs)
            return jobspec.dumps()
    except SystemExit:  # argparse: "usage: ...", then "flux submit: error: MSG"
        lines = [line for line in err.getvalue().splitlines() if line.strip()]
        printed = lines[-1] if lines else f"(exit without a message: {err.getvalue()!r})"
        prefix = "flux submit: error: "
        message = printed[len(prefix) :] if printed.startswith(prefix) else printed
        raise Refused(message, printed) from None
    except Refused:
        raise
    except Exception as exc:  # noqa: BLE001 - as flux.util.CLIMain reports any exception
        message = getattr(exc, "strerror", None) or str(exc)
        if getattr(exc, "filename", None):
            message += f": '{exc.filename}'"
        raise Refused(message, f"flux-submit: ERROR: {message}") from None


def stage_of(errnum, message):
    if errnum == 22 and ("exceeds policy limit" in message or "is under policy limit" in message):
        return "limit"
    if errnum == 22 and (
        message.endswith("is not a valid queue") or "job submission to " in message
    ):
        return "queue"
    return "ingest"


def main():
    import flux
    import flux.job

    inp, outp, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
    with open(inp, encoding="utf-8") as f:
        requests = [json.loads(line) for line in f if line.strip()]
    verdicts = [None] * len(requests)
    todo = []  # (index, jobspec text)
    for i, req in enumerate(requests):
        if "argv" in req:
            try:
                todo.append((i, jobspec_from_argv([str(w) for w in req["argv"]])))
            except Refused as exc:
                verdicts[i] = {
                    "accepted": False,
                    "errno": None,
                    "message": exc.message,
                    "stage": "cli",
                    "printed": exc.printed,
                }
        elif "jobspec" in req:
            todo.append((i, json.dumps(req["jobspec"])))
        else:
            raise SystemExit(f"request {i}: neither 'argv' nor 'jobspec': {req!r}")

    h = flux.Flux()
    todo.reverse()  # pop() from the end: submit in order
    state = {"inflight": 0}

    def answered(future, i):
        state["inflight"] -= 1
        try:
            verdicts[i] = {"accepted": True, "jobid": int(future.get_id()), "stage": None}
        except OSError as exc:
            message = exc.strerror or str(exc)
            verdicts[i] = {
                "accepted": False,
                "errno": exc.errno,
                "message": message,
                "stage": stage_of(exc.errno, message),
            }
        launch()

    def launch():
        while todo and state["inflight"] < WINDOW:
            i, text = todo.pop()
            state["inflight"] += 1
            flux.job.submit_async(h, text, urgency=0).then(answered, i)
        if not todo and state["inflight"] == 0:
            h.reactor_stop()

    def expired(handle, watcher, revents, _arg):
        handle.reactor_stop()

    timer = h.timer_watcher_create(timeout, expired)
    timer.start()
    launch()
    if todo or state["inflight"]:
        h.reactor_run()
    timer.stop()

    missing = [i for i, v in enumerate(verdicts) if v is None]
    with open(outp, "w", encoding="utf-8") as f:
        for v in verdicts:  # null: no answer
            f.write(json.dumps(v) + "\n")
    if missing:
        print(
            f"site_submit: no answer within {timeout} s for {len(missing)} request(s), "
            f"first: {requests[missing[0]]!r}",
            file=sys.stderr,
        )
        sys.exit(3)


if __name__ == "__main__":
    main()
