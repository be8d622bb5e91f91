"""`jobspec mcp`: the tools of :mod:`.tools` served over stdio with the Model Context
Protocol SDK (the ``mcp`` extra: ``pip install "jobspec-lsp[mcp]"``). Each call's result
is one JSON object, sent as the call's structured content and, the same JSON, as its text;
each tool declares its result's schema (a definition of the verdict schema) as its
outputSchema. The only module that loads the SDK: `jobspec check` never does."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

from jobspec_lsp import __version__
from jobspec_lsp.mcp import tools, verdict

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing; True to mypy
if TYPE_CHECKING:
    from typing import Any

INSTRUCTIONS = (
    "Tools for Flux resource manager jobs. Before submitting a Flux batch script (#flux: "
    "directives) or a jobspec you wrote, call check; apply fix for the findings that have "
    "fixes, change the text yourself for the rest (explain tells what a code means), and "
    "check again until no error is left; then show_jobspec shows what flux batch will "
    "submit. To move a Slurm, LSF or PBS script to Flux, call convert. new gives the "
    "jobspec of a flux submit command line. Ranges are 0-based, in UTF-16 code units; line "
    "and column are 1-based."
)
_READ_ONLY = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


def listed() -> list[types.Tool]:
    """Every tool as the client lists it: its arguments' schema and its result's."""
    return [
        types.Tool(
            name=t.name,
            title=t.title,
            description=t.description,
            input_schema=t.arguments,
            output_schema=verdict.definition(t.result),
            annotations=_READ_ONLY,
        )
        for t in tools.TOOLS
    ]


def answer(result: dict[str, Any], error: bool) -> types.CallToolResult:
    """A tool's result: the JSON object as structured content and as text."""
    text = json.dumps(result, ensure_ascii=False)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        structured_content=result,
        is_error=error,
    )


def make_server(served: tools.Served) -> Server:
    """The server: the tools of the table, each call answered with ``served``'s settings."""

    async def on_list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed())

    async def on_call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        result, error = tools.call(params.name, params.arguments or {}, served)
        return answer(result, error)

    return Server(
        "jobspec-lsp",
        version=__version__,
        title="Flux jobspec and batch script checks",
        instructions=INSTRUCTIONS,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


async def _serve(server: Server) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve(cwd: Path, target: str | None = None, site: str | None = None) -> int:
    """Serve over stdin and stdout until the client closes them: exit status 0."""
    anyio.run(_serve, make_server(tools.Served(cwd, target, site)))
    return 0
