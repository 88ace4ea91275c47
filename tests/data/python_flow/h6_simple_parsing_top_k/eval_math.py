# Imitates lebrice/SimpleParsing's nested-dataclass CLIs as evaluation scripts use them (a sampling
# section dataclass whose fields are the request, parsed with simple_parsing.parse)
import dataclasses
from dataclasses import dataclass, field

import simple_parsing
from vllm import LLM, SamplingParams


@dataclass
class SamplingArgs:
    temperature: float = 0.6
    top_p: float = 0.95
    top_k: int = 0  # expect: RPL102
    max_tokens: int = 4096


@dataclass
class EvalArgs:
    model: str = "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B"
    sampling: SamplingArgs = field(default_factory=SamplingArgs)


def main() -> None:
    args = simple_parsing.parse(EvalArgs)
    llm = LLM(model=args.model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    params = SamplingParams(**dataclasses.asdict(args.sampling))
    llm.generate(["Compute 2^10."], params)


if __name__ == "__main__":
    main()
