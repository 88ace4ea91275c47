# Imitates a click command line around an engine (axolotl-style `cli/vllm_serve.py`).
import click
from vllm import LLM


@click.command()
@click.option("--logprobs-mode", default="raw_logits")  # expect: RPL003 "logprobs_mode comes from --logprobs-mode"
def main(logprobs_mode):
    LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode=logprobs_mode)
