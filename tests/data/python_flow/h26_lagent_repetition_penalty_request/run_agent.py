# Imitates InternLM/lagent lagent/llms/vllm_wrapper.py with BaseLLM's repetition_penalty keyword.
from vllm_wrapper import VllmModel

llm = VllmModel(
    path='internlm/internlm2_5-7b-chat',
    tp=1,
    vllm_cfg=dict(return_sampling_mask=True, logprobs_mode='processed_logprobs'),
    top_k=50,
    repetition_penalty=1.02,  # expect: RPL302
    stop_words=['<|im_end|>', '<|action_end|>'])

print(llm.generate('Plan a search query.'))
