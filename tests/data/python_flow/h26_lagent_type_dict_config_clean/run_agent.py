# Imitates InternLM/lagent's config style (a dict with `type=` and keywords, built by popping `type`),
# as in lagent's examples/ and lagent/utils/util.py create_object.
from vllm_wrapper import VllmModel


def create_object(cfg: dict):
    cfg = cfg.copy()
    obj_type = cfg.pop('type')
    return obj_type(**cfg)


llm_cfg = dict(
    type=VllmModel,
    path='internlm/internlm2_5-7b-chat',
    tp=1,
    vllm_cfg=dict(return_sampling_mask=True, logprobs_mode='processed_logprobs'),
    top_p=0.8,
    top_k=1,
    temperature=0.8,
    max_new_tokens=2048,
    stop_words=['<|im_end|>'])

llm = create_object(llm_cfg)
print(llm.generate('Tell me a fact.'))
