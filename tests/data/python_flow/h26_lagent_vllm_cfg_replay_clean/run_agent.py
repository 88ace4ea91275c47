# Imitates InternLM/lagent examples/run_agent_lmdeploy.py style, with lagent/llms/vllm_wrapper.py's VllmModel;
# the user's edit turns replay on through vllm_cfg.
from vllm_wrapper import VllmModel

REPLAY_CFG = dict(return_sampling_mask=True, logprobs_mode='processed_logprobs')

llm = VllmModel(
    path='internlm/internlm2_5-7b-chat',
    tp=1,
    vllm_cfg=REPLAY_CFG,
    max_new_tokens=1024,
    stop_words=['<|im_end|>'])

print(llm.generate('Write a haiku about rollouts.'))
