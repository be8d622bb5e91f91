"""The scheduling policies, in process, with fake work: what runs, and in what order
(never how long anything takes)."""

import asyncio
import threading

from jobspec_lsp.lsp.scheduling import Debouncer, OneAtATime


def test_a_newer_request_cancels_the_waiting_one():
    async def scenario():
        ran: list[str] = []

        async def job(key):
            ran.append(key)

        d = Debouncer(job, settle=0.05, burst=0.05)
        first = d.request("a")
        second = d.request("a")  # while the first still waits: a burst
        other = d.request("b")
        await asyncio.gather(second, other)
        assert first.cancelled()
        return sorted(ran)

    assert asyncio.run(scenario()) == ["a", "b"]  # one run per document


def test_requests_apart_each_run():
    async def scenario():
        ran: list[str] = []

        async def job(key):
            ran.append(key)

        d = Debouncer(job, settle=0, burst=0)
        await d.request("a")
        await d.request("a")
        return ran

    assert asyncio.run(scenario()) == ["a", "a"]


def test_cancel_forgets_the_waiting_work():
    async def scenario():
        ran: list[str] = []

        async def job(key):
            ran.append(key)

        d = Debouncer(job, settle=0.05, burst=0.05)
        task = d.request("a")
        d.cancel("a")
        await asyncio.sleep(0)
        assert task.cancelled() or task.cancelling()
        return ran

    assert asyncio.run(scenario()) == []


def test_one_run_at_a_time_and_one_more_for_what_came_meanwhile():
    async def scenario():
        release = threading.Event()
        started = threading.Event()
        runs: list[int] = []
        again: list[str] = []

        def work(n):
            def fn():
                started.set()
                release.wait(30)
                runs.append(n)
                return n

            return fn

        one = OneAtATime(again=again.append)
        first = asyncio.ensure_future(one.run("big", work(1)))
        await asyncio.get_event_loop().run_in_executor(None, started.wait, 30)
        # while the first runs: these do not start threads of their own
        assert await one.run("big", work(2)) is None
        assert await one.run("big", work(3)) is None
        assert again == []
        release.set()
        assert await first == 1
        await asyncio.sleep(0)  # the done callback
        return runs, again

    runs, again = asyncio.run(scenario())
    assert runs == [1]  # only the first ran...
    assert again == ["big"]  # ... and one more run is asked for, once, for what came meanwhile
