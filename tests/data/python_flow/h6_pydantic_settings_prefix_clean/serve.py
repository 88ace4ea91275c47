# Imitates PrimeIntellect-ai/prime-rl's inference entry point: the engine and the requests from settings
from vllm import LLM, SamplingParams

from settings import RolloutSettings

settings = RolloutSettings()
llm = LLM(
    model=settings.model,
    return_sampling_mask=settings.return_sampling_mask,
    logprobs_mode=settings.logprobs_mode,
)
params = SamplingParams(temperature=settings.temperature, top_k=settings.top_k, max_tokens=512)
llm.generate(["Summarise the PPO paper."], params)
