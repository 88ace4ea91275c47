# Imitates InternLM/lagent lagent/llms/vllm_wrapper.py's VllmModel as an agent script builds it;
# the user's edit turns replay on but leaves logprobs_mode at vLLM's default.
from vllm_wrapper import VllmModel

vllm_cfg = dict(gpu_memory_utilization=0.85)
vllm_cfg['return_sampling_mask'] = True  # expect: RPL003

llm = VllmModel(
    path='internlm/internlm2_5-7b-chat',
    vllm_cfg=vllm_cfg,
    stop_words=['<|im_end|>'])

print(llm.generate(['What is 2 + 3?']))
