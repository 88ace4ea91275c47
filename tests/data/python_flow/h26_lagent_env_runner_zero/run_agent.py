# Imitates InternLM/lagent lagent/llms/vllm_wrapper.py; the script pins the runner in the environment first.
import os

os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'  # expect: RPL206

from vllm_wrapper import VllmModel  # noqa: E402

llm = VllmModel(
    path='internlm/internlm2_5-7b-chat',
    vllm_cfg=dict(return_sampling_mask=True, logprobs_mode='processed_logprobs'))
print(llm.generate('hi'))
