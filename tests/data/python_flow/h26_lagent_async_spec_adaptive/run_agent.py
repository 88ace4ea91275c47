# Imitates InternLM/lagent lagent/llms/vllm_wrapper.py's AsyncVllmModel (AsyncEngineArgs(**vllm_cfg)).
import asyncio

from async_vllm_wrapper import AsyncVllmModel

SPEC = {
    'method': 'ngram',
    'num_speculative_tokens': 3,
    'prompt_lookup_max': 4,
    'enable_adaptive_verification': True,  # expect: RPL002
}

llm = AsyncVllmModel(
    path='internlm/internlm2_5-7b-chat',
    vllm_cfg=dict(return_sampling_mask=True, logprobs_mode='processed_logprobs', speculative_config=SPEC),
    top_k=40)

print(asyncio.run(llm.generate(['hello', 'world'])))
