# Imitates InternLM/lagent's config style (a dict with `type=` built by create_object) and
# lagent/llms/vllm_wrapper.py; the config is grown with `|`.
from vllm_wrapper import VllmModel


def create_object(cfg: dict):
    cfg = cfg.copy()
    obj_type = cfg.pop('type')
    return obj_type(**cfg)


base = dict(type=VllmModel, path='internlm/internlm2_5-7b-chat', max_new_tokens=1024)
sampling = dict(top_p=1.0, top_k=-1, temperature=1.0)  # expect: RPL102
replay = dict(vllm_cfg=dict(return_sampling_mask=True, logprobs_mode='processed_logprobs'))

llm = create_object(base | sampling | replay)
print(llm.generate(['Sample freely.']))
