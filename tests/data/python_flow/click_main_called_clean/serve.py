# Imitates a click entry point that calls its command at the bottom; its default is the one
# replay needs, so the launch is clean.
import click
from vllm import LLM


@click.command()
@click.option("--model", default="Qwen/Qwen3-8B")
@click.option("--logprobs-mode", default="processed_logprobs")
def main(model, logprobs_mode):
    LLM(model, return_sampling_mask=True, logprobs_mode=logprobs_mode)


if __name__ == "__main__":
    main()
