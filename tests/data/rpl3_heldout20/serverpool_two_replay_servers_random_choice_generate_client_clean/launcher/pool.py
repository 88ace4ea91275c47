"""Two replay servers for rollouts on consecutive ports, started and stopped together."""

import subprocess

REPLAY = ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]


class ServerPool:
    def __init__(self, model: str, size: int, base_port: int = 8000) -> None:
        self.argvs = [["vllm", "serve", model, "--port", str(base_port + i), *REPLAY] for i in range(size)]
        self.procs: list[subprocess.Popen] = []

    def __enter__(self) -> "ServerPool":
        self.procs = [subprocess.Popen(argv) for argv in self.argvs]
        return self

    def __exit__(self, *exc) -> None:
        for proc in self.procs:
            proc.terminate()


if __name__ == "__main__":
    with ServerPool("Qwen/Qwen3-4B", 2) as pool:
        for proc in pool.procs:
            proc.wait()
