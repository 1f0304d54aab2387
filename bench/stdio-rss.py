#!/usr/bin/env python3
"""Peak memory of the reference server over stdio while one client pipelines requests.

Starts the server binary under `/usr/bin/time -v` on a workspace holding one small file,
sends `initialize`, then N `tools/call` requests of `read_file` as fast as the pipe takes
them, without waiting for any answer, while another thread reads the answers. Once every
answer has arrived it closes stdin and prints the server's peak resident set size.

    cargo build --release --bin mcp-workspace
    bench/stdio-rss.py [BINARY] [N]     # defaults: target/release/mcp-workspace 10000
"""

import json
import os
import subprocess
import sys
import tempfile
import threading
import time


def main() -> int:
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/mcp-workspace"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    root = tempfile.mkdtemp(prefix="stdio-rss-")
    with open(os.path.join(root, "hello.txt"), "w") as f:
        f.write("hello\nworld\n")
    server = subprocess.Popen(
        ["/usr/bin/time", "-v", binary, "--root", root],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "RUST_LOG": "error"},
    )
    answered = set()
    errors = []

    def read() -> None:
        for line in server.stdout:
            message = json.loads(line)
            if "error" in message:
                errors.append(message)
            answered.add(message.get("id"))
            if len(answered) == count + 1:
                return

    reader = threading.Thread(target=read)
    reader.start()
    started = time.monotonic()
    lines = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "stdio-rss", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ] + [
        {"jsonrpc": "2.0", "id": i, "method": "tools/call",
         "params": {"name": "read_file", "arguments": {"path": "hello.txt"}}}
        for i in range(1, count + 1)
    ]
    payload = "".join(json.dumps(m) + "\n" for m in lines).encode()
    server.stdin.write(payload)
    server.stdin.flush()
    reader.join()
    elapsed = time.monotonic() - started
    server.stdin.close()
    server.wait(timeout=60)
    stderr = server.stderr.read().decode()
    peak = next(
        (line.split(":")[1].strip() for line in stderr.splitlines()
         if "Maximum resident set size" in line),
        "?",
    )
    print(f"{count} requests, {len(answered) - 1} answered ({len(errors)} errors) "
          f"in {elapsed:.2f} s; peak RSS {peak} kB")
    return 0 if len(answered) == count + 1 and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
