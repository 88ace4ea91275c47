# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py (`seed=seed + i` per engine) and
# a rollout whose settings are computed from the module's constants: a text built with `%`, a
# top-k halved, a temperature scaled; every operand is known, so the values are too.
from vllm import LLM, SamplingParams

LOGPROBS = "raw"
BASE_SEED = 1234
TOP_K = 1
COOL_DOWN = 0.0


def create_engines():
    seeds = (0, 1)
    return [LLM("Qwen/Qwen3-0.6B", seed=BASE_SEED + i, return_sampling_mask=True, logprobs_mode="%s_logprobs" % LOGPROBS) for i in seeds]  # expect: RPL003


def rollout(prompts):
    llm = LLM("Qwen/Qwen3-0.6B", seed=BASE_SEED, return_sampling_mask=True, logprobs_mode=f"{'processed'}_logprobs")
    halved = SamplingParams(temperature=1.0, top_k=TOP_K // 2)  # expect: RPL102
    scaled = SamplingParams(temperature=1.0 * COOL_DOWN, top_k=int("8") * 2)  # expect: RPL101
    return llm.generate(prompts, halved), llm.generate(prompts, scaled)
