import subprocess
import sys
import time

import requests


class RemoteReplayServer:
    """Starts `vllm serve` for the tests, like vLLM's own tests/utils.py RemoteOpenAIServer."""

    def __init__(self, model: str, serve_args: list[str], port: int = 8000) -> None:
        self.url = f"http://localhost:{port}"
        cmd = [sys.executable, "-m", "vllm.entrypoints.cli.main", "serve", model, "--port", str(port), *serve_args]
        self.proc = subprocess.Popen(cmd)
        self._wait()

    def _wait(self) -> None:
        for _ in range(240):
            try:
                if requests.get(f"{self.url}/health", timeout=1).ok:
                    return
            except requests.ConnectionError:
                time.sleep(1)
        raise RuntimeError("server did not start")

    def __enter__(self) -> "RemoteReplayServer":
        return self

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=60)
