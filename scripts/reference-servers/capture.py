"""Starts each reference MCP server over stdio with the official MCP Python SDK, lists its
tools (following nextCursor), and writes them as an MCP tools/list result.

    python capture.py OUT_DIR NAME=COMMAND [ARGS...] [NAME=COMMAND ...]

Each server argument is one shell-split string: "memory=node /path/dist/index.js".
"""

import asyncio
import json
import shlex
import sys
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def list_tools(command: list[str]) -> list[dict]:
    params = StdioServerParameters(command=command[0], args=command[1:])
    tools: list[dict] = []
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            cursor = None
            while True:
                result = await session.list_tools(
                    params=None if cursor is None else {"cursor": cursor}
                )
                tools.extend(
                    t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in result.tools
                )
                cursor = result.next_cursor
                if cursor is None:
                    return tools


async def main() -> int:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for spec in sys.argv[2:]:
        name, _, command = spec.partition("=")
        tools = await asyncio.wait_for(list_tools(shlex.split(command)), timeout=60)
        path = out / f"{name}.json"
        path.write_text(json.dumps({"tools": tools}, indent=2, ensure_ascii=False) + "\n")
        print(f"{name}: {len(tools)} tools -> {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
