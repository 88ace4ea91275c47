"""The language server's latency: `python bench/lsp.py [--runs R] [--edits N] [--server CMD]`.

Drives the real `replaylint server` over stdio with hand-written JSON-RPC framing, R times (a
fresh server each), and prints the median of each figure over the runs:

- start: the server process started -> `initialize` answered;
- first open: `didOpen` of a Python file (under 1,000 lines, with a launch) -> its diagnostics,
  the file opened `--settle` seconds after `initialized` (the server idle by then);
- edit p50 / p95: `didChange` -> the diagnostics of that version, over N edits, each sent once
  the previous one's diagnostics arrived;
- typing p50: the last of a burst of 5 changes 5 ms apart -> its diagnostics (each change
  supersedes the check of the one before), over N/5 bursts.

Targets (issue 31): start within 150 ms, first open within 60 ms, edit p95 within 50 ms. Exit
status: 0 within the targets, 1 not. `--server` runs another server to compare (for example
`--server "ruff server"`; only a server that publishes on every change is timed on edits).
Stdlib only.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGETS_MS = {"start": 150.0, "first open": 60.0, "edit p50": 50.0, "edit p95": 50.0, "typing p50": 50.0}
KEYSTROKE_SECONDS = 0.005  # between the changes of a burst: faster than a check
TIMEOUT_SECONDS = 30.0
# A training script: a launch with a finding (RPL003) after many lines of ordinary Python.
LAUNCH = 'subprocess.run(["vllm", "serve", "model", "--return-sampling-mask", "--port", "{port}"])\n'
FILLER = "def helper_{n}(values):\n    total = sum(v * {n} for v in values)\n    return total if total > 0 else None\n\n\n"


def document(port: int) -> str:
    body = "import subprocess\n\n\n" + "".join(FILLER.format(n=n) for n in range(180))
    return body + LAUNCH.format(port=port)  # 904 lines


class Server:
    """A language server in a subprocess, spoken to in JSON-RPC over its stdin and stdout."""

    def __init__(self, command: list[str], cwd: str) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buffer = b""
        self.next_id = 0

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def request(self, method: str, params: dict) -> int:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def receive(self) -> dict:
        deadline = time.perf_counter() + TIMEOUT_SECONDS
        while True:
            header, _, rest = self.buffer.partition(b"\r\n\r\n")
            if _:
                length = next(int(line.split(b":")[1]) for line in header.split(b"\r\n") if line.lower().startswith(b"content-length"))
                if len(rest) >= length:
                    self.buffer = rest[length:]
                    return json.loads(rest[:length])
            self._read(deadline)

    def _read(self, deadline: float) -> None:
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, deadline - time.perf_counter()))
        chunk = os.read(self.process.stdout.fileno(), 1 << 16) if ready else b""
        if not chunk:
            raise SystemExit(f"the server ended or did not answer within {TIMEOUT_SECONDS:g} s")
        self.buffer += chunk

    def wait_for(self, matches) -> dict:
        """The first message `matches`; requests from the server are answered with null."""
        while True:
            message = self.receive()
            if "method" in message and "id" in message:
                self.send({"id": message["id"], "result": None})
            if matches(message):
                return message

    def stop(self) -> None:
        try:
            self.request("shutdown", {})
            self.notify("exit", {})
            self.process.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


def diagnostics_of(uri: str, version: int):
    def matches(message: dict) -> bool:
        params = message.get("params") or {}
        return message.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == uri and params.get("version") == version

    return matches


def one_run(command: list[str], folder: Path, edits: int, settle: float) -> dict[str, list[float]]:
    """Milliseconds: start, first open, and each edit."""
    path = folder / "train.py"
    path.write_text(document(8000))
    uri = path.as_uri()
    server = Server(command, str(folder))
    try:
        asked = server.request("initialize", {"processId": os.getpid(), "rootUri": folder.as_uri(), "capabilities": {}})
        server.wait_for(lambda message: message.get("id") == asked and "method" not in message)
        figures: dict[str, list[float]] = {"start": [(time.perf_counter() - server.started) * 1000]}
        server.notify("initialized", {})
        time.sleep(settle)  # an editor's user opens a file a moment after the server starts
        opened = time.perf_counter()
        server.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": path.read_text()}}
        )
        server.wait_for(diagnostics_of(uri, 1))
        figures["first open"] = [(time.perf_counter() - opened) * 1000]
        figures["edit"] = []
        for version in range(2, edits + 2):
            changed = time.perf_counter()
            change = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": document(8000 + version)}]}
            server.notify("textDocument/didChange", change)
            server.wait_for(diagnostics_of(uri, version))
            figures["edit"].append((time.perf_counter() - changed) * 1000)
        figures["typing"] = [typed(server, uri, version) for version in range(edits + 2, 2 * edits + 2, 5)]
        return figures
    finally:
        server.stop()


def typed(server: Server, uri: str, first: int) -> float:
    """Milliseconds from the last of five quick changes to the diagnostics of its version."""
    for version in range(first, first + 5):
        if version > first:
            time.sleep(KEYSTROKE_SECONDS)
        changed = time.perf_counter()
        change = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": document(8000 + version)}]}
        server.notify("textDocument/didChange", change)
    server.wait_for(diagnostics_of(uri, first + 4))
    return (time.perf_counter() - changed) * 1000


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--settle", type=float, default=2.0, help="seconds from `initialized` to the first open")
    parser.add_argument("--server", default=f"{shlex.quote(sys.executable)} -m replaylint server")
    options = parser.parse_args()
    rows: dict[str, list[float]] = {name: [] for name in TARGETS_MS}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(options.runs):
            figures = one_run(shlex.split(options.server), Path(folder), options.edits, options.settle)
            rows["start"] += figures["start"]
            rows["first open"] += figures["first open"]
            rows["edit p50"].append(statistics.median(figures["edit"]))
            rows["edit p95"].append(percentile(figures["edit"], 0.95))
            rows["typing p50"].append(statistics.median(figures["typing"]))
    print(f"{'':12} {'median ms':>10} {'min':>8} {'max':>8} {'target':>8}")
    within = True
    for name, values in rows.items():
        median = statistics.median(values)
        within &= median <= TARGETS_MS[name]
        print(f"{name:12} {median:10.1f} {min(values):8.1f} {max(values):8.1f} {TARGETS_MS[name]:8.0f}")
    print(f"{options.runs} runs of {options.edits} edits of a {len(document(0).splitlines())}-line Python file")
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main())
