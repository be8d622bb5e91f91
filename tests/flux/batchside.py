"""Runs under ``flux python``: the jobspec `flux batch --dry-run SCRIPT` prints, from
flux-core's own BatchCmd (directives read by its DirectiveParser, its parser with the
CLI plugins' options, then ``jobspec_create``), for many scripts in one process. Reads
one JSON string (a script's text) per line on stdin; each is written to ``job.sh`` in a
scratch directory, the current directory there. Writes one JSON line per input:
{"ok": true, "jobspec": obj} or {"ok": false, "error": str}. Needs no instance."""

import io
import json
import os
import sys
import tempfile
from contextlib import redirect_stderr


def main():
    from flux.cli.batch import BatchCmd

    scratch = tempfile.mkdtemp()
    os.chdir(scratch)
    for line in sys.stdin:
        text = json.loads(line)
        with open("job.sh", "w", encoding="utf-8") as f:
            f.write(text)
        cmd = BatchCmd("flux batch")
        parser = cmd.parser
        for option in cmd.plugins.options:
            parser.add_argument(option.name, **option.kwargs)
        cmd.argv = ["job.sh"]
        err = io.StringIO()
        try:
            with redirect_stderr(err):
                args = parser.parse_args(["job.sh"])
                cmd.script, args = cmd.process_script(args)
                js = json.loads(cmd.jobspec_create(args).dumps())
            out = {"ok": True, "jobspec": js}
        except SystemExit:
            out = {"ok": False, "error": err.getvalue().strip()[-300:]}
        except Exception as exc:  # noqa: BLE001 - any refusal of Flux's is the answer
            out = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
