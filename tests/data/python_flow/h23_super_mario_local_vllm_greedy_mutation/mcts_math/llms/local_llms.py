# Imitates MARIO-Math-Reasoning/Super_MARIO mcts_math/llms/local_llms.py (local_vllm writes n and temperature
# onto the SamplingParams it is given, then generates).
from typing import List

from vllm import LLM, SamplingParams


def local_vllm(
    prompt: str,
    llm: LLM,
    sampling_params: SamplingParams,
    n: int,
    temperature: float,
) -> List[str]:
    # update args
    sampling_params.n = n
    sampling_params.temperature = temperature
    outputs = llm.generate([prompt], sampling_params=sampling_params)
    return [co.text for co in outputs[0].outputs]
