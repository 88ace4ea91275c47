# Imitates rllm-org/rllm rllm/engine/rollout/rollout_engine.py: the mode comes from the command line; every branch
# that turns replay on also sets the processed logprobs.
import sys

from vllm import LLM, SamplingParams


def engine_kwargs(mode: str) -> dict:
    match mode:
        case "replay" | "replay-long":
            return {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
        case "eval":
            return {"logprobs_mode": "raw_logprobs"}
        case _:
            return {}


llm = LLM("deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", **engine_kwargs(sys.argv[1]))
print(llm.generate(["Why is the sky blue?"], SamplingParams(temperature=0.6, top_k=20)))
