"""The collector's pace while `jobspec` starts: young collections made rare until the
first file is checked (what importing makes lives as long as the process), its usual
pace after that (:func:`jobspec_lsp.cli.main.run` sets the start-up pace)."""

from __future__ import annotations

import gc

START_UP_THRESHOLD = 20_000  # allocations between young collections while starting
USUAL = gc.get_threshold()


def started() -> None:
    """Start-up is over (the first file is checked: what it imported is imported): what
    start-up made is left out of the collector's scans (its garbage collected first),
    and the collector runs at its usual pace."""
    if gc.get_threshold()[0] == START_UP_THRESHOLD:
        gc.collect(1)
        gc.freeze()
        gc.set_threshold(*USUAL)


def started_after_one(files):
    """``files``, with :func:`started` called once the first has been dealt with."""
    for n, item in enumerate(files):
        if n == 1:
            started()
        yield item
