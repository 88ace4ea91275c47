# Imitates InternLM/lagent lagent/llms/vllm_wrapper.py; a project subclass pins its own sampling keywords
# and forwards the rest to BaseLLM through **kwargs.
from vllm_wrapper import VllmModel


class ReplayVllmModel(VllmModel):
    def __init__(self, path, **kwargs):
        kwargs.setdefault('vllm_cfg', dict(return_sampling_mask=True, logprobs_mode='processed_logprobs'))
        super().__init__(path, **kwargs)


llm = ReplayVllmModel(
    'internlm/internlm2_5-7b-chat',
    temperature=0.0,  # expect: RPL101
    top_k=20)
print(llm.generate('Summarise the GSM8K task.'))
