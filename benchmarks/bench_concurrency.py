"""Does work on a big document delay requests on a small one? (jobspec-lsp over stdio)

    python benchmarks/bench_concurrency.py [--size BYTES] [--rounds N] [--jobspec-lsp CMD]

Opens a small jobspec and a generated big one (default ~2 MB, benchmarks/generate.py)
and waits for both to be analysed. Then, per round: the latency of a hover on the
small document alone (baseline), and the latency of the same hover sent right after a
completion request on the big document (the completion still under way). Reports the
medians and p90 in ms and the extra delay the big completion causes. Prints; asserts
nothing; exits 0. Machines here are noisy: compare the two columns of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_lsp import Client  # noqa: E402
from generate import generate  # noqa: E402

from jobspec_lsp.jobspec import examples  # noqa: E402

SMALL = examples.jobspec(version=1, system="    duration: 60\n")


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(round(0.9 * len(ordered))) - 1)]


async def main_async(args) -> None:
    big = generate(args.size)
    client = Client("jobspec-lsp", [args.jobspec_lsp], None)
    await client.start()
    small_uri, big_uri = (
        "file:///tmp/bench/small.jobspec.yaml",
        "file:///tmp/bench/big.jobspec.yaml",
    )
    for uri, text in ((small_uri, SMALL), (big_uri, big)):
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
        )
        await client.drain()
    for uri in (small_uri, big_uri):
        await client.wait_publish(uri, 0, 1, 300)
    hover = {"textDocument": {"uri": small_uri}, "position": {"line": 13, "character": 6}}
    # the middle of the big document, at a key
    line = big[: len(big) // 2].count("\n")
    complete = {"textDocument": {"uri": big_uri}, "position": {"line": line, "character": 4}}
    alone, beside, completions = [], [], []
    for _ in range(args.rounds):
        t0 = time.perf_counter()
        await client.request("textDocument/hover", hover)
        alone.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        pending = asyncio.ensure_future(client.request("textDocument/completion", complete, 120))
        await asyncio.sleep(0.02)  # the completion has reached the server
        t1 = time.perf_counter()
        await client.request("textDocument/hover", hover)
        beside.append((time.perf_counter() - t1) * 1000)
        await pending
        completions.append((time.perf_counter() - t0) * 1000)
    await client.stop()
    print(
        f"document sizes: small {len(SMALL)} B, big {len(big) / 1e6:.1f} MB; {args.rounds} rounds"
    )
    print("| request | median ms | p90 ms |")
    print("|---|---|---|")
    for label, vals in (
        ("hover on the small document, alone", alone),
        ("the same hover while a big-document completion runs", beside),
        ("completion on the big document", completions),
    ):
        print(f"| {label} | {statistics.median(vals):.1f} | {p90(vals):.1f} |")
    print(
        f"extra delay from the big completion: median "
        f"{statistics.median(beside) - statistics.median(alone):.1f} ms, p90 "
        f"{p90(beside) - p90(alone):.1f} ms"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=2_000_000)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--jobspec-lsp", default=str(Path(sys.executable).parent / "jobspec-lsp"))
    asyncio.run(main_async(ap.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
