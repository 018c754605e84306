"""Interop check: the official Python MCP SDK keeps a Streamable HTTP session through a long idle.

    check_idle_session.py URL TOKEN SECONDS

Connects to a running `toolpact serve --http` (bearer TOKEN), lists the tools, stays idle for
SECONDS with the session open, then lists the tools again and calls one. The server is
started by idle-session.sh with a session idle timeout shorter than SECONDS: the session must
live because the client is still connected (its event stream is open), not because the
timeout is long. Prints `ok   python idle Ns` or `FAIL python idle Ns REASON`; exit status 0
or 1.
"""

from __future__ import annotations

import logging
import sys
import time

import anyio
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

STEP_SECONDS = 30


async def check(url: str, token: str, seconds: float) -> None:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with http:
        async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
            with anyio.fail_after(STEP_SECONDS):
                before = await client.list_tools()
            started = time.monotonic()
            await anyio.sleep(seconds)
            with anyio.fail_after(STEP_SECONDS):
                after = await client.list_tools()
            if [t.name for t in after.tools] != [t.name for t in before.tools]:
                raise RuntimeError("the tools listed after the idle differ from those before")
            with anyio.fail_after(STEP_SECONDS):
                result = await client.call_tool("create_order", {"giftId": "g-1", "quantity": 0})
            if not result.is_error:
                raise RuntimeError(f"an invalid call after {time.monotonic() - started:.0f} s was not refused: {result!r}")


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    url, token, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    logging.getLogger("mcp.client.streamable_http").setLevel(logging.ERROR)
    where = f"python idle {seconds:.0f}s"
    try:
        anyio.run(check, url, token, seconds)
    except Exception as error:  # noqa: BLE001 - reported as the check's failure
        print(f"FAIL {where} {type(error).__name__}: {error}")
        return 1
    print(f"ok   {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
