# Imitates allenai/open-instruct open_instruct/grpo_fast.py: config fields read one by one; the
# constructor call overrides the default mode.
from dataclasses import dataclass, field

from vllm import LLM


@dataclass
class Args:
    model: str = "Qwen/Qwen3-8B"
    replay: bool = True
    logprobs_mode: str = field(default="raw_logprobs")
    enforce_eager: bool = False


args = Args(logprobs_mode="raw_logits")  # expect: RPL003
llm = LLM(args.model, return_sampling_mask=args.replay, logprobs_mode=args.logprobs_mode, enforce_eager=args.enforce_eager)
