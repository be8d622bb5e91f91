"""`jobspec mcp` driven as an agent's client drives it: the MCP SDK's own client, the
server started over stdio (the installed `jobspec mcp`), each result taken from its
structured content, held to the tool's declared outputSchema and to the verdict schema's
definition, and checked to be the same JSON as its text. `agent_loop` is the loop an agent
runs on a batch script it wrote (tests/test_mcp.py; tests/flux/test_flux_mcp.py then hands
its result to real Flux)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import anyio
import jsonschema
from helpers import jobspec_exe
from mcp import Client, StdioServerParameters

from jobspec_lsp.mcp import verdict

# what an agent writes: an option misspelt (--jobname), and a suppression comment left from
# an earlier version that suppresses nothing now
BROKEN_SCRIPT = (
    "#!/bin/bash\n"
    "#flux: -N 2 -n 8\n"
    "#flux: -t 90m\n"
    "#flux: --jobname=sim\n"
    "#flux: --queue=pbatch  # jobspec: ignore[JS572]\n"
    "\n"
    "flux run -N 2 -n 8 ./sim\n"
)
RESULTS = {  # each tool's result definition in the verdict schema
    "check": "checkResult",
    "fix": "fixResult",
    "convert": "convertResult",
    "new": "jobspecResult",
    "show_jobspec": "jobspecResult",
    "explain": "rule",
}


def server(cwd: Path, args: list[str] | None = None, env: dict | None = None):
    return StdioServerParameters(
        command=jobspec_exe(),
        args=["mcp", *(args or [])],
        cwd=str(cwd),
        env={**os.environ, **(env or {})},
    )


class Session:
    """One client connected to one server: ``call`` gives a tool's JSON result (and
    checks it as an agent's client would rely on it)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.listed: dict = {}

    async def tools(self) -> list:
        got = (await self.client.list_tools()).tools
        self.listed = {t.name: t for t in got}
        return got

    async def call(self, name: str, arguments: dict, error: bool = False) -> dict:
        if not self.listed:
            await self.tools()
        got = await self.client.call_tool(name, arguments)
        assert got.is_error is error, (name, arguments, got)
        result = got.structured_content
        assert isinstance(result, dict)
        assert [c.type for c in got.content] == ["text"]
        assert json.loads(got.content[0].text) == result  # the same JSON as its text
        if error:
            jsonschema.validate(result, verdict.definition("error"))
        else:
            jsonschema.validate(result, self.listed[name].output_schema)
            jsonschema.validate(result, verdict.definition(RESULTS[name]))
        return result


def session(cwd: Path, work, args: list[str] | None = None, env: dict | None = None):
    """``await work(Session)``'s value, with a server started in ``cwd``."""

    async def run():
        async with Client(server(cwd, args, env), read_timeout_seconds=120) as client:
            return await work(Session(client))

    return anyio.run(run)


def apply_edits(text: str, edits: list[dict]) -> str:
    """LSP TextEdits (0-based lines, UTF-16 characters) applied to ``text``, the last
    first, as an agent's editor applies a fix it was given."""

    def offset(pos: dict) -> int:
        lines = text.split("\n")
        start = sum(len(line) + 1 for line in lines[: pos["line"]])
        units, k = 0, 0
        line = lines[pos["line"]] if pos["line"] < len(lines) else ""
        while units < pos["character"] and k < len(line):
            units += 2 if ord(line[k]) > 0xFFFF else 1
            k += 1
        return start + k

    spans = [(offset(e["range"]["start"]), offset(e["range"]["end"]), e["newText"]) for e in edits]
    for a, b, new in sorted(spans, reverse=True):
        text = text[:a] + new + text[b:]
    return text


async def agent_loop(s: Session, text: str = BROKEN_SCRIPT) -> dict:
    """An agent's loop on a batch script it wrote: check, fix what is safe, check again,
    apply by hand the first fix of each error left (as the agent would, from the edits it
    was given), check until no error is left, then show_jobspec. Every step's result."""
    steps: dict = {"first": await s.call("check", {"text": text, "filename": "job.sh"})}
    fixed = await s.call("fix", {"text": text, "filename": "job.sh"})
    steps["fix"] = fixed
    text = fixed["text"]
    steps["again"] = again = await s.call("check", {"text": text, "filename": "job.sh"})
    for _ in range(5):
        errors = [f for f in again["findings"] if f["severity"] == "error"]
        if not errors:
            break
        edits = [e for f in errors[:1] for e in f["fixes"][0]["edits"]]
        text = apply_edits(text, edits)
        again = await s.call("check", {"text": text, "filename": "job.sh"})
    steps["last"] = again
    steps["text"] = text
    steps["jobspec"] = await s.call("show_jobspec", {"text": text, "filename": "job.sh"})
    return steps
