"""`replay-serve`: start the policy server for rollouts."""

import subprocess

import click


@click.command()
@click.option("--model", default="Qwen/Qwen3-0.6B", show_default=True)
@click.option("--port", default=8000, type=int, show_default=True)
@click.option("--gpu-memory-utilization", default=0.85, type=float)
def serve(model: str, port: int, gpu_memory_utilization: float) -> None:
    argv = ["vllm", "serve", model, "--port", str(port)]
    argv += ["--gpu-memory-utilization", str(gpu_memory_utilization)]
    argv += ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]
    click.echo(" ".join(argv))
    subprocess.run(argv, check=True)


if __name__ == "__main__":
    serve()
