"""The official MCP Python SDK as a client of one route, with a bearer token.

    python_sdk.py URL TOKEN REVISION

Connects to URL (such as http://127.0.0.1:8080/mcp/read), sending `Authorization: Bearer
TOKEN` on every request (no header when TOKEN is empty), speaking REVISION (2025-11-25: the
initialize handshake; 2026-07-28: stateless). Lists the tools, reads `notes.txt` with
`read_file`, and prints one JSON line: the tool names and the text read. A refusal is printed
as {"error": ..., "statuses": [...]}, with the HTTP status of every response received (the
SDK's own error does not always name it), and exits 1.
"""

import asyncio
import json
import sys

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


STATUSES: list[int] = []


async def record(response: httpx2.Response) -> None:
    STATUSES.append(response.status_code)


async def main(url: str, token: str, revision: str) -> int:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    mode = "legacy" if revision == "2025-11-25" else revision
    hooks = {"response": [record]}
    async with httpx2.AsyncClient(headers=headers, timeout=30, event_hooks=hooks) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, mode=mode, raise_exceptions=True) as client:
            tools = await client.list_tools()
            result = await client.call_tool("read_file", {"path": "notes.txt"})
            text = result.structured_content or {}
            print(json.dumps({"tools": [t.name for t in tools.tools], "read": text}))
    return 0


def run() -> int:
    url, token, revision = sys.argv[1:4]
    try:
        return asyncio.run(main(url, token, revision))
    except BaseException as error:  # noqa: BLE001 - the test reads what went wrong
        while isinstance(error, BaseExceptionGroup) and error.exceptions:
            error = error.exceptions[0]
        print(json.dumps({"error": f"{type(error).__name__}: {error}", "statuses": STATUSES}))
        return 1


if __name__ == "__main__":
    sys.exit(run())
