"""When the language server analyses a document: pure asyncio, no LSP.

Two small policies, each a unit with its own tests (tests/test_scheduling.py):

- ``Debouncer``: a change waits ``settle`` seconds for a newer one already on its
  way; a newer change cancels it. When changes come faster than that (a burst: the
  previous one was still waiting), the newest waits ``burst`` seconds instead, so
  typing is not analysed once per keystroke.
- ``OneAtATime``: work that cannot be cancelled (a thread analysing a big document)
  runs at most once at a time per document; requests meanwhile fold into one more
  run when it ends, so the last version is always the one analysed last.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

SETTLE_DELAY = 0.004  # how long a change waits for a newer one already on its way
BURST_DELAY = 0.03  # ... and inside a burst of changes


class Debouncer:
    def __init__(
        self,
        job: Callable[[str], Awaitable[None]],
        settle: float = SETTLE_DELAY,
        burst: float = BURST_DELAY,
    ):
        self.job, self.settle, self.burst = job, settle, burst
        self.tasks: dict[str, asyncio.Task] = {}

    def request(self, key: str) -> asyncio.Task:
        """Run ``job(key)`` soon; cancels the one still waiting for ``key``."""
        old = self.tasks.pop(key, None)
        in_burst = old is not None and not old.done()
        if old is not None and in_burst:
            old.cancel()
        task = asyncio.get_event_loop().create_task(
            self._later(key, self.burst if in_burst else self.settle)
        )
        self.tasks[key] = task
        return task

    def cancel(self, key: str) -> None:
        """Forget ``key``'s work, waiting or running (the document was closed)."""
        task = self.tasks.pop(key, None)
        if task is not None:
            task.cancel()

    async def _later(self, key: str, delay: float) -> None:
        await asyncio.sleep(delay)  # cancelled here if a newer change arrives meanwhile
        await self.job(key)


class OneAtATime:
    def __init__(self, again: Callable[[str], object]):
        self.again = again  # called with the key when a run ends and requests came meanwhile
        self.running: set[str] = set()
        self.pending: set[str] = set()

    async def run(self, key: str, fn: Callable[[], object]):
        """``fn()`` in a thread, unless one runs for ``key``: then ``None`` now, and
        ``again(key)`` once the running one ends."""
        if key in self.running:
            self.pending.add(key)
            return None
        self.running.add(key)
        fut = asyncio.get_event_loop().run_in_executor(None, fn)

        def finished(_):
            self.running.discard(key)
            if key in self.pending:
                self.pending.discard(key)
                self.again(key)

        fut.add_done_callback(finished)
        return await asyncio.shield(fut)  # a cancelled waiter leaves the thread to finish
