"""Runs under ``flux python``: the jobspec `flux submit --dry-run ARGV` prints, from
flux-core's own SubmitCmd (its parser with the CLI plugins' options, then
``jobspec_create``), for many command lines in one process. Reads one JSON list of
words per line on stdin; writes one JSON line per input: {"ok": true, "jobspec": obj}
or {"ok": false, "error": str}. Needs no instance."""

import io
import json
import sys
from contextlib import redirect_stderr


def main():
    from flux.cli.submit import SubmitCmd

    cmd = SubmitCmd("flux submit")
    parser = cmd.parser
    for option in cmd.plugins.options:
        parser.add_argument(option.name, **option.kwargs)
    for line in sys.stdin:
        words = json.loads(line)
        err = io.StringIO()
        try:
            with redirect_stderr(err):
                args = parser.parse_args(words)
                js = json.loads(cmd.jobspec_create(args).dumps())
            out = {"ok": True, "jobspec": js}
        except SystemExit:
            out = {"ok": False, "error": err.getvalue().strip()[-300:]}
        except Exception as exc:  # noqa: BLE001 - any refusal of Flux's is the answer
            out = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
