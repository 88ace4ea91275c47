"""Start the policy server the way `trl vllm-serve` does (vLLM's own CLI, exec'd in place),
with sampling masks for replay."""

import argparse
import os
import sys


def build_command(args: argparse.Namespace) -> list[str]:
    command = [
        sys.executable,
        "-m",
        "vllm.entrypoints.cli.main",
        "serve",
        args.model,
        "--host",
        args.host,
        "--port",
        str(args.port),
        "--tensor-parallel-size",
        str(args.tensor_parallel_size),
        "--gpu-memory-utilization",
        str(args.gpu_memory_utilization),
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--max-logprobs",
        "-1",
    ]
    if args.enforce_eager:
        command += ["--enforce-eager"]
    return command


def main() -> None:
    parser = argparse.ArgumentParser(description="policy server for replay rollouts")
    parser.add_argument("--model", default="Qwen/Qwen2.5-7B-Instruct")
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--tensor-parallel-size", type=int, default=1)
    parser.add_argument("--gpu-memory-utilization", type=float, default=0.9)
    parser.add_argument("--enforce-eager", action="store_true")
    args = parser.parse_args()

    command = build_command(args)
    env = os.environ.copy()
    env["VLLM_SERVER_DEV_MODE"] = "1"
    os.execve(sys.executable, command, env)


if __name__ == "__main__":
    main()
