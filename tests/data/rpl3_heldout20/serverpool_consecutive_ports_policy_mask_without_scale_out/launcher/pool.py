"""Start one vLLM server per role on consecutive ports and stop them together."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field


@dataclass
class ServerSpec:
    model: str
    extra: list[str] = field(default_factory=list)


ROLES = {
    "policy": ServerSpec(
        "Qwen/Qwen3-4B",
        [
            "--return-sampling-mask",
            "--logprobs-mode",
            "processed_logprobs",
        ],
    ),
    "judge": ServerSpec("Qwen/Qwen3-8B", ["--max-model-len", "16384"]),
    "embed": ServerSpec("BAAI/bge-m3", ["--runner", "pooling"]),
}


class ServerPool:
    """Owns the vllm serve processes; the first role gets base_port."""

    def __init__(self, roles: dict[str, ServerSpec], base_port: int = 8000) -> None:
        self.roles = roles
        self.base_port = base_port
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self) -> "ServerPool":
        for offset, (name, spec) in enumerate(self.roles.items()):
            port = self.base_port + offset
            argv = ["vllm", "serve", spec.model, "--port", str(port), *spec.extra]
            self.procs[name] = subprocess.Popen(argv)
        return self

    def stop(self) -> None:
        for proc in self.procs.values():
            proc.terminate()
        for proc in self.procs.values():
            proc.wait(timeout=60)


if __name__ == "__main__":
    pool = ServerPool(ROLES).start()
    try:
        for proc in pool.procs.values():
            proc.wait()
    finally:
        pool.stop()
