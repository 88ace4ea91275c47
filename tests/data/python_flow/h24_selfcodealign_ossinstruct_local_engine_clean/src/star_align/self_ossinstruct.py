# Imitates bigcode-project/selfcodealign src/star_align/self_ossinstruct.py: with
# use_vllm_server off, a local LLM over every visible GPU and one SamplingParams per batch with
# a per-batch seed. The user turned replay on and bounded top_k.
from dataclasses import dataclass, field
from typing import cast

from transformers import HfArgumentParser


@dataclass(frozen=True)
class Args:
    model: str = field(default="bigcode/starcoder2-15b")
    use_vllm_server: bool = field(default=False)
    seed: int = field(default=3407)
    temperature: float = field(default=0.7)
    top_k: int = field(default=50)
    max_output_tokens: int = field(default=1536)
    num_sample_per_request: int = field(default=32)
    num_batches: int = field(default=2)


def main():
    args = cast(Args, HfArgumentParser(Args).parse_args_into_dataclasses()[0])
    if not args.use_vllm_server:
        import torch
        from vllm import LLM, SamplingParams

        engine = LLM(
            args.model,
            tensor_parallel_size=torch.cuda.device_count(),
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
    for effective_index in range(args.num_batches):
        stop = ["## Example"]
        sampling_params = SamplingParams(
            temperature=args.temperature,
            top_k=args.top_k,
            max_tokens=args.max_output_tokens,
            seed=args.seed + effective_index,
            n=args.num_sample_per_request,
            stop=stop,
        )
        responses = engine.generate(["### Instruction\nWrite a parser."], sampling_params)
        print(responses[0].outputs[0].text)


if __name__ == "__main__":
    main()
