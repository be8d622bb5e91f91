"""Runs under ``flux python`` inside the test instance: asks Flux's own code.

Reads JSON lines on stdin, writes one JSON line per input on stdout:

- ``submit``: each line a jobspec (JSON text); submitted with urgency 0 and cancelled.
  Out: {"ok": bool, "error": str}.
- ``constraint``: each line a string; Flux's ``--requires`` parser (RFC 35).
  Out: {"ok": bool, "result": obj, "error": str}.
- ``shape``: each line a string; Flux's RFC 46 shape parser.
- ``v1check``: each line a jobspec; flux-core's C ``flux_jobspec1_check``.
- ``yaml``: each line a string of YAML; what ``JobspecV1.from_yaml_stream`` reads
  (``repr`` of it, so dates and other non-JSON values show).
- ``validate``: each line a jobspec (JSON text); ``flux.job.validate_jobspec`` with the
  version given as argv[2] ("1" or "any"), without an instance.
"""

import errno
import json
import sys


def main():
    mode = sys.argv[1]
    if mode == "submit":
        import flux
        import flux.job

        h = flux.Flux()

        def answer(text):
            future = flux.job.submit_async(h, text, urgency=0)
            try:  # never hang the suite: an answer, or this
                future.wait_for(60)
            except OSError as err:
                if err.errno == errno.ETIMEDOUT:
                    return {"ok": False, "error": "no answer from job-ingest within 60 s"}
                raise
            jobid = future.get_id()
            flux.job.cancel(h, jobid)
            return {"ok": True}
    elif mode == "constraint":
        from flux.job._utils import MiniConstraintParser

        def answer(text):
            return {"ok": True, "result": MiniConstraintParser().parse(json.loads(text))}
    elif mode == "shape":
        from flux.shape.parser import ShapeParser

        def answer(text):
            return {"ok": True, "result": ShapeParser().parse(json.loads(text))}
    elif mode == "yaml":
        from canon import canon
        from flux.job import JobspecV1

        def answer(text):
            js = JobspecV1.from_yaml_stream(json.loads(text))
            return {"ok": True, "result": canon(js.jobspec)}
    elif mode == "v1check":  # flux-core's C V1 checker, flux_jobspec1_check()
        from flux.core.inner import ffi, lib

        def answer(text):
            err = ffi.new("flux_jobspec1_error_t *")
            js = lib.flux_jobspec1_decode(text.encode(), err)
            if js == ffi.NULL:
                return {"ok": False, "error": ffi.string(err.text).decode()}
            try:
                rc = lib.flux_jobspec1_check(js, err)
                return {"ok": rc == 0, "error": ffi.string(err.text).decode() if rc else ""}
            finally:
                lib.flux_jobspec1_destroy(js)
    else:
        raise SystemExit(f"unknown mode {mode}")
    stuck = None
    for line in sys.stdin:
        if stuck:  # ingest stopped answering: say so for the rest, at once
            print(json.dumps({"ok": False, "error": stuck}), flush=True)
            continue
        try:
            out = answer(line.rstrip("\n"))
        except Exception as err:  # noqa: BLE001 - Flux's verdict, whatever it raises
            out = {"ok": False, "error": str(err)}
        if out.get("error", "").startswith("no answer"):
            stuck = "not submitted: job-ingest stopped answering (" + line[:200] + ")"
        print(json.dumps(out), flush=True)


main()
