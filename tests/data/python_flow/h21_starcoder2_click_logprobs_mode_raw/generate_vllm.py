# Imitates bigcode-project/starcoder2's README generation examples (checkpoint = "bigcode/starcoder2-15b"),
# as a user's click CLI that samples completions with vLLM and replay.
import click
from vllm import LLM, SamplingParams


@click.command()
@click.option("--checkpoint", default="bigcode/starcoder2-15b")
@click.option("--logprobs-mode", "logprobs_mode", default="raw_logprobs")  # expect: RPL003
@click.option("--temperature", default=0.2, type=float)
@click.option("--top-k", "top_k", default=50, type=int)
def main(checkpoint, logprobs_mode, temperature, top_k):
    llm = LLM(model=checkpoint, return_sampling_mask=True, logprobs_mode=logprobs_mode)
    params = SamplingParams(temperature=temperature, top_k=top_k, max_tokens=256)
    print(llm.generate(["def print_hello_world():"], params)[0].outputs[0].text)


if __name__ == "__main__":
    main()
