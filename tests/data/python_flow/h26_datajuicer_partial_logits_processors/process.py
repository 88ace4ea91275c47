# Imitates modelscope/data-juicer data_juicer/utils/model_utils.py: prepare_model returns a partial of
# prepare_vllm_model, called later through get_model (MODEL_ZOO).
from model_utils import get_model, prepare_model
from vllm import SamplingParams

model_key = prepare_model(
    model_type='vllm',
    pretrained_model_name_or_path='Qwen/Qwen2.5-7B-Instruct',
    return_sampling_mask=True,
    logprobs_mode='processed_logprobs',
    logits_processors=['dj_ext.ban.BanWordsProcessor'])  # expect: RPL001

model, tokenizer = get_model(model_key)
outputs = model.generate(['hello'], SamplingParams(temperature=0.8, top_k=20))
print(outputs[0].outputs[0].text)
