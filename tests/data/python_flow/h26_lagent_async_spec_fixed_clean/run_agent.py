# Imitates InternLM/lagent lagent/llms/vllm_wrapper.py's AsyncVllmModel; ngram speculation with fixed verification.
import asyncio

from async_vllm_wrapper import AsyncVllmModel

vllm_cfg = dict(return_sampling_mask=True, logprobs_mode='processed_logprobs')
vllm_cfg.update(speculative_config={'method': 'ngram', 'num_speculative_tokens': 3, 'prompt_lookup_max': 4})

llm = AsyncVllmModel(path='internlm/internlm2_5-7b-chat', vllm_cfg=vllm_cfg)

print(asyncio.run(llm.generate(['hello', 'world'], temperature=0.6)))
