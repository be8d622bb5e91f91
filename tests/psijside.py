"""Runs under a Python with psij-python (tests/psij_env.py makes one): asks PSI/J's own
code. Reads one JSON request on stdin, writes one JSON answer on stdout.

- {"fields": true}: the parameters of JobSpec, ResourceSpecV1 and JobAttributes.
- {"serialize": [specs]}: each spec ({"resources": {...}, "attributes": {...}, ...:
  keyword arguments, duration in seconds}) built as psij objects and written by
  psij's JSONSerializer.
- {"load": [texts]}: each JSON text read by psij's JSONSerializer, written back by it
  (what psij-python makes of a file), or {"error": ...}.
- {"run": [specs]}: each spec submitted through psij-python's own Flux executor (to the
  instance of FLUX_URI) and waited for: {"id": Flux job id} or {"error": ...}.
"""

import datetime
import inspect
import json
import sys

import psij
from psij.serialize import JSONSerializer


def build(spec):
    spec = dict(spec)
    res = spec.pop("resources", None)
    attrs = spec.pop("attributes", None)
    if res is not None:
        spec["resources"] = psij.ResourceSpecV1(**res)
    if attrs is not None:
        attrs = dict(attrs)
        if "duration" in attrs:
            attrs["duration"] = datetime.timedelta(seconds=attrs["duration"])
        spec["attributes"] = psij.JobAttributes(**attrs)
    return psij.JobSpec(**spec)


def main():
    req = json.load(sys.stdin)
    s = JSONSerializer()
    if "fields" in req:
        out = {
            c.__name__: [p for p in inspect.signature(c.__init__).parameters if p != "self"]
            for c in (psij.JobSpec, psij.ResourceSpecV1, psij.JobAttributes)
        }
    elif "serialize" in req:
        out = [s.dumps(build(spec)) for spec in req["serialize"]]
    elif "run" in req:
        executor = psij.JobExecutor.get_instance("flux")
        out = []
        for spec in req["run"]:
            try:
                job = psij.Job(build(spec))
                executor.submit(job)
                job.wait(timeout=datetime.timedelta(seconds=120))
                out.append({"id": str(job.native_id), "state": str(job.status.state)})
            except Exception as exc:  # noqa: BLE001 - psij's own refusal is the answer
                out.append({"error": f"{type(exc).__name__}: {exc}"})
    else:
        out = []
        for text in req["load"]:
            try:
                out.append({"text": s.dumps(s.loads(text))})
            except Exception as exc:  # noqa: BLE001 - psij's own refusal is the answer
                out.append({"error": f"{type(exc).__name__}: {exc}"})
    json.dump(out, sys.stdout)


main()
