"""The official MCP Python SDK as many clients of one route behind a load balancer.

    cluster.py many URL N
        N clients of 2025-11-25 at once, each: initialize, tools/list, read_file on
        notes.txt. Once every client has read it (or failed), prints {"called": clients that
        read it, "failed": [why, per client that failed first], "refused": [each response of
        4xx but 404 or 5xx]} and waits for a line on stdin while they hold their sessions; then each
        closes (the SDK's DELETE of its session), and it prints one JSON line: {"served":
        clients that read the file and closed, "errors": [what went wrong, per client that
        failed], "deletes": {status: count}, "instances": {X-Served-By: responses}}.

    cluster.py confirm URL PATH
        One 2026-07-28 client that accepts every elicitation deletes PATH recursively: the
        server asks to confirm (input_required), the SDK answers and retries. Prints one JSON
        line: {"result": the tool's structured result, "asked": the elicitation messages,
        "rounds": [[X-Served-By, whether the request carried requestState], ...] for each
        tools/call}.

An error is printed as {"error": ...} and exits 1.
"""

import asyncio
import collections
import json
import sys

import httpx2
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client


async def one_client(
    url: str,
    deletes: collections.Counter,
    instances: collections.Counter,
    called: "Progress",
    end: asyncio.Event,
) -> None:
    async def record(response: httpx2.Response) -> None:
        instances[response.headers.get("x-served-by", "none")] += 1
        if response.status_code >= 400 and response.status_code != 404:
            # What refused it, for the test's message: a 404 ends a session by design.
            await response.aread()
            by = response.headers.get("x-served-by", "none")
            called.refused.append(
                f"{response.request.method} {response.status_code} by {by}: {response.text[:200]}"
            )
        if response.request.method == "DELETE":
            deletes[str(response.status_code)] += 1

    hooks = {"response": [record]}
    async with httpx2.AsyncClient(timeout=60, event_hooks=hooks) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, mode="legacy", raise_exceptions=True) as client:
            tools = await client.list_tools()
            assert any(t.name == "read_file" for t in tools.tools), tools
            result = await client.call_tool("read_file", {"path": "notes.txt"})
            content = (result.structured_content or {}).get("content")
            assert content == "hello\n", result
            called.done(True)
            await end.wait()


def describe(error: BaseException) -> str:
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return f"{type(error).__name__}: {error}"


class Progress:
    """How many clients got as far as their call, and whether all did (or failed first)."""

    def __init__(self, n: int) -> None:
        self.left, self.ok, self.all = n, 0, asyncio.Event()
        # Why the clients that failed first did, and the error statuses anyone got.
        self.failed: list[str] = []
        self.refused: list[str] = []

    def done(self, ok: bool) -> None:
        self.left -= 1
        self.ok += ok
        if self.left == 0:
            self.all.set()


async def many(url: str, n: int) -> dict:
    deletes: collections.Counter = collections.Counter()
    instances: collections.Counter = collections.Counter()
    called, end = Progress(n), asyncio.Event()

    async def client() -> None:
        try:
            await one_client(url, deletes, instances, called, end)
        except BaseException as error:
            if not end.is_set() and called.left > 0:
                called.failed.append(describe(error))
                called.done(False)
            raise

    clients = asyncio.gather(*(client() for _ in range(n)), return_exceptions=True)
    await called.all.wait()
    print(
        json.dumps({"called": called.ok, "failed": called.failed, "refused": called.refused}),
        flush=True,
    )
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    end.set()
    outcomes = await clients
    errors = [describe(o) for o in outcomes if isinstance(o, BaseException)]
    return {
        "served": n - len(errors),
        "errors": errors,
        "deletes": dict(deletes),
        "instances": dict(instances),
    }


async def confirm(url: str, path: str) -> dict:
    asked: list[str] = []
    rounds: list[list] = []

    async def record(response: httpx2.Response) -> None:
        try:
            body = json.loads(response.request.content or b"{}")
        except ValueError:
            return
        if isinstance(body, dict) and body.get("method") == "tools/call":
            has_state = "requestState" in (body.get("params") or {})
            rounds.append([response.headers.get("x-served-by", "none"), has_state])

    async def elicit(context, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"confirm": True})

    hooks = {"response": [record]}
    async with httpx2.AsyncClient(timeout=60, event_hooks=hooks) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(
            transport, mode="2026-07-28", raise_exceptions=True, elicitation_callback=elicit
        ) as client:
            result = await client.call_tool("delete_path", {"path": path, "recursive": True})
            return {"result": result.structured_content, "asked": asked, "rounds": rounds}


def run() -> int:
    mode, url = sys.argv[1:3]
    try:
        if mode == "many":
            answer = asyncio.run(many(url, int(sys.argv[3])))
        else:
            answer = asyncio.run(confirm(url, sys.argv[3]))
    except BaseException as error:  # noqa: BLE001 - the test reads what went wrong
        print(json.dumps({"error": describe(error)}))
        return 1
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(run())
