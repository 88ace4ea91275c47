# Imitates InternLM/lagent lagent/llms/vllm_wrapper.py: generate(**kwargs) overrides gen_params per call.
from vllm_wrapper import VllmModel

llm = VllmModel(
    path='internlm/internlm2_5-7b-chat',
    vllm_cfg={'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'},
    stop_words=['<|im_end|>'])

answers = llm.generate(
    ['Name three primes.'],
    top_k=0,  # expect: RPL102
    temperature=0.7)
print(answers)
