"""No garbage-collector pauses while a big tree is built.

Reading a document makes one object per node and keeps them all: Python's cyclic
collector, run every few hundred allocations, scans the growing heap again and again, so
a reading's cost grew faster than the text (about 280, 330 and 480 ns per character at
300 KB, 1 MB and 3 MB on this project's machine; 235-240 at every size without it).
The trees built here hold no reference cycles the collector would have to find, so it
is switched off while one is built and on again after (the outermost of nested or
concurrent readings switches it back on, and only when it was on before).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def no_gc_pauses() -> Iterator[None]:
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()


def keep_out_of_collections() -> None:
    """Leave every object alive now out of the collector's future scans (``gc.freeze``):
    for a long-running process that has just built a big tree it keeps. The tree's
    hundreds of thousands of nodes were otherwise scanned again by the next full
    collection, which the few objects each later edit promotes set off now and then
    (0.3-0.5 s, a typing pause, at 3 MB). The trees hold no reference cycles: when one
    is dropped, reference counting frees it, frozen or not. The young generations are
    collected first, so that the cyclic garbage a check has just left (vertices and their
    parents) is not frozen with it. :func:`rejoin_collections` gives the frozen objects
    back (when no big document is open any more), so whatever cyclic garbage was frozen
    is collected after all."""
    gc.collect(1)
    gc.freeze()


def rejoin_collections() -> None:
    gc.unfreeze()
