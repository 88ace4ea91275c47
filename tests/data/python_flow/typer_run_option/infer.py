# Imitates a typer script run with `typer.run(main)` whose options are `typer.Option(...)`
# defaults (LLaMA-Factory-style `scripts/vllm_infer.py` written for typer).
import typer
from vllm import LLM


def main(
    model: str = typer.Option("Qwen/Qwen3-8B"),
    logprobs_mode: str = typer.Option(default="raw_logprobs"),  # expect: RPL003 "logprobs_mode comes from"
):
    LLM(model, return_sampling_mask=True, logprobs_mode=logprobs_mode)


if __name__ == "__main__":
    typer.run(main)
