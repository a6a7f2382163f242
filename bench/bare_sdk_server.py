"""The floor for an MCP SDK server: the SDK's low-level Server on stdio with one trivial tool.

Used by bench/server.py as the baseline for start-up and round trips. The tool is called
``validate_json`` and answers ``{"valid": true}`` without looking at its arguments.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

TOOL = types.Tool(name="validate_json", description="Trivial.", input_schema={"type": "object"})


async def _list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[TOOL])


async def _call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text='{"valid": true}')], structured_content={"valid": True}
    )


async def main() -> None:
    server: Server[Any] = Server("bare", on_list_tools=_list_tools, on_call_tool=_call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
