"""What a site profile adds to a check: a jobspec and a batch script checked with and
without `--site`, on the example site (16 nodes) and on a 10,000-node one (its R held as
node classes and idsets, never per node), in process, best of N; and the profile's
loading. The reference, measured in the same run: the same check without a site.

    python benchmarks/bench_site.py

Prints, asserts nothing."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from bench_batch import best  # best of n, the benchmarks' one timer

from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.rules import analysis
from jobspec_lsp.script import batch
from jobspec_lsp.site import checks, profile

REPO = Path(__file__).resolve().parent.parent
JOB = """version: 1
resources:
  - type: node
    count: 2
    with:
      - type: slot
        count: 4
        label: task
        with:
          - type: core
            count: 8
          - type: gpu
            count: 1
tasks:
  - command: [app]
    slot: task
    count: {per_slot: 1}
attributes:
  system:
    duration: 3600
    queue: gpu
    constraints: {properties: [a100]}
"""
SCRIPT = "#!/bin/sh\n#flux: -N2 -n8 -c8 -g1 -q gpu -t 1h --requires=a100\nflux run ./app\n"


def big_site(directory: Path) -> None:
    """10,000 CPU nodes in four queues and 1,000 GPU nodes: a big centre's shape."""
    lite = [
        {"rank": "0-9999", "children": {"core": "0-111"}},
        {"rank": "10000-10999", "children": {"core": "0-95", "gpu": "0-7"}},
    ]
    props = {"pdebug": "0-255", "pbatch": "256-9999", "gpu": "10000-10999", "a100": "10000-10999"}
    r = {"version": 1, "execution": {"R_lite": lite, "nodelist": ["n[0-9999],g[0-999]"],
                                     "properties": props, "starttime": 0, "expiration": 0}}  # fmt: skip
    (directory / "R.json").write_text(json.dumps(r))
    (directory / "site.toml").write_text(
        '[resource]\npath = "R.json"\nnoverify = true\n'
        '[ingest.validator]\nplugins = ["jobspec", "feasibility"]\n'
        '[queues.pdebug]\nrequires = ["pdebug"]\npolicy.limits.duration = "1h"\n'
        '[queues.pbatch]\nrequires = ["pbatch"]\npolicy.limits.duration = "1d"\n'
        '[queues.gpu]\nrequires = ["gpu"]\npolicy.limits.duration = "12h"\n'
        '[policy.jobspec.defaults.system]\nqueue = "pbatch"\nduration = "1h"\n'
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        big_dir = Path(tmp)
        big_site(big_dir)
        t_load_big = best(lambda: profile.load(big_dir), n=20)
        sites = {"example (16 nodes)": profile.load(REPO / "examples" / "site"),
                 "10,000 + 1,000 nodes": profile.load(big_dir)}  # fmt: skip
    doc = parse(JOB)
    data = json.loads(json.dumps(analysis.to_python(doc.root)))
    t_plain = best(lambda: analysis.check(doc, target="flux-core"), n=200)
    t_script = best(lambda: batch.check_script(SCRIPT), n=200)
    print(f"load the 11,000-node profile (TOML + R as node classes): {t_load_big * 1000:.2f} ms")
    print(f"reference: check the jobspec without a site: {t_plain * 1000:.3f} ms")
    print(f"reference: check the script without a site: {t_script * 1000:.3f} ms")
    for name, site in sites.items():
        t_checks = best(lambda site=site: checks.check(site, data), n=200)
        t_doc = best(lambda site=site: analysis.check(doc, target="flux-core", site=site), n=200)
        t_sh = best(lambda site=site: batch.check_script(SCRIPT, site=site), n=200)
        print(
            f"{name}: {len(site.classes)} node classes; the site checks alone "
            f"{t_checks * 1000:.3f} ms; jobspec with the site {t_doc * 1000:.3f} ms "
            f"(+{(t_doc - t_plain) * 1000:.3f} ms, {t_doc / t_plain:.2f}x); script with the "
            f"site {t_sh * 1000:.3f} ms (+{(t_sh - t_script) * 1000:.3f} ms)"
        )


if __name__ == "__main__":
    main()
