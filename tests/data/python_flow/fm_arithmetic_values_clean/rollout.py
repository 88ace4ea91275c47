# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py (`seed=seed + i` per engine):
# settings computed from the module's constants as vLLM wants them, and from a value read at run
# time (the world size), which leaves the result unknown: nothing is reported on it.
import os

from vllm import LLM, SamplingParams

LOGPROBS = "processed"
TOP_K = 64


def rollout(prompts, rank):
    llm = LLM("Qwen/Qwen3-0.6B", seed=1234 + rank, return_sampling_mask=True, logprobs_mode="{}_logprobs".format(LOGPROBS))
    world = int(os.environ["WORLD_SIZE"])
    shared = SamplingParams(temperature=1.0, top_k=TOP_K // world)
    cooled = SamplingParams(temperature=1.0 - rank * 0.1, top_k=TOP_K or 20)
    return llm.generate(prompts, shared), llm.generate(prompts, cooled)
