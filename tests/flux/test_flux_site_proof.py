"""Will it run here? The project's verdict against real Flux's, site by site.

Each profile under tests/data/sites is started as a real Flux instance from the same
directory (its fake R, `noverify`, the feasibility validator on), and several hundred
generated `flux submit` command lines and jobspecs (tests/site_cases.py) are submitted
there with urgency 0. For every one: the project reports an error exactly when Flux
refuses the job, and for every refusal one of its errors is the code that names Flux's
cause (an unknown queue, a limit, an unsatisfiable request, ...), with the reason Flux
does not give."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import site_cases
from siteside import flux_verdicts

from jobspec_lsp.site import profile

SITES = sorted((Path(__file__).resolve().parent.parent / "data" / "sites").iterdir())
PER_SITE = (300, 220)  # command lines, jobspecs


@pytest.mark.flux
@pytest.mark.parametrize("site_dir", SITES, ids=lambda p: p.name)
def test_our_verdict_is_flux_verdict(flux_exe, site_dir):
    site = profile.load(site_dir)
    reqs = site_cases.requests(site, PER_SITE)
    assert len(reqs) >= 500
    theirs = flux_verdicts(flux_exe, site_dir, reqs)
    wrong, unnamed, tally = [], [], Counter()
    for req, flux in zip(reqs, theirs, strict=True):
        refused, codes, messages = site_cases.our_verdict(site, req)
        tally["refused" if not flux["accepted"] else "accepted"] += 1
        if refused != (not flux["accepted"]):
            wrong.append((req, flux, codes, messages))
            continue
        if not flux["accepted"]:
            want = site_cases.expected_code(flux["message"])
            tally[want or flux["stage"]] += 1
            if want is not None and want not in codes:
                unnamed.append((req, flux["message"], codes, messages))
    print(f"{site_dir.name}: {len(reqs)} requests, {dict(tally)}")
    assert not wrong, "\n".join(map(repr, wrong[:10])) + f"\n({len(wrong)} disagree)"
    assert not unnamed, "\n".join(map(repr, unnamed[:10])) + f"\n({len(unnamed)} unnamed)"
    # the cases reach both sides of the line
    assert tally["accepted"] >= 50 and tally["refused"] >= 50, tally
