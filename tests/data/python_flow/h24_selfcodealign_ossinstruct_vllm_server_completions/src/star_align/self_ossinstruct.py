# Imitates bigcode-project/selfcodealign src/star_align/self_ossinstruct.py: with
# use_vllm_server (the default) the requests go to the vLLM server through OpenAIClient.
import asyncio
from dataclasses import dataclass, field
from typing import cast

from transformers import HfArgumentParser

from star_align.utils import OpenAIClient


@dataclass(frozen=True)
class Args:
    model: str = field(default="bigcode/starcoder2-15b")
    use_vllm_server: bool = field(default=True)
    temperature: float = field(default=0.7)
    max_output_tokens: int = field(default=1536)
    num_sample_per_request: int = field(default=32)


async def main():
    args = cast(Args, HfArgumentParser(Args).parse_args_into_dataclasses()[0])
    openai_client = OpenAIClient()
    request_params = [
        dict(
            model=args.model,
            prompt="### Instruction\nWrite a parser.",
            max_tokens=args.max_output_tokens,
            n=args.num_sample_per_request,
            temperature=args.temperature,
            extra_body={"top_k": 50},
            stop=["## Example"],
        )
    ]
    responses = await openai_client.dispatch_completions(request_params)
    print(responses[0].choices[0].text)


if __name__ == "__main__":
    asyncio.run(main())
