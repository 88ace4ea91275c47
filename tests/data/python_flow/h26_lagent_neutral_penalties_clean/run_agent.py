# Imitates InternLM/lagent lagent/llms/vllm_wrapper.py; per-call kwargs spread into SamplingParams(**gen_params)
# with neutral penalties written out and BaseLLM's top_k default (40) kept.
from vllm_wrapper import VllmModel

llm = VllmModel(
    path='internlm/internlm2_5-7b-chat',
    vllm_cfg={'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'},
    repetition_penalty=1.0)

NEUTRAL = {'presence_penalty': 0.0, 'frequency_penalty': 0.0}
print(llm.generate('Explain replay.', temperature=0.9, **NEUTRAL))
