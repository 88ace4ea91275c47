# Imitates a click entry point that calls its command at the bottom (OpenRLHF-style
# `cli/serve_vllm.py` scripts, `if __name__ == "__main__": main()`): click parses the command line.
import click
from vllm import LLM


@click.command()
@click.option("--model", default="Qwen/Qwen3-8B")
@click.option("--logprobs-mode", "logprobs_mode", default="raw_logprobs")  # expect: RPL003 "logprobs_mode comes from --logprobs-mode"
def main(model, logprobs_mode):
    LLM(model, return_sampling_mask=True, logprobs_mode=logprobs_mode)


if __name__ == "__main__":
    main()
