# Imitates modelscope/data-juicer data_juicer/utils/model_utils.py (prepare_vllm_model, prepare_model, MODEL_ZOO).
import os
from functools import partial

MODEL_ZOO = {}


def prepare_vllm_model(pretrained_model_name_or_path, **llm_params):
    import vllm

    os.environ['VLLM_WORKER_MULTIPROC_METHOD'] = 'spawn'
    model = vllm.LLM(model=pretrained_model_name_or_path, **llm_params)
    tokenizer = model.get_tokenizer()
    return (model, tokenizer)


MODEL_FUNCTION_MAPPING = {
    'vllm': prepare_vllm_model,
}


def prepare_model(model_type, **model_kwargs):
    assert model_type in MODEL_FUNCTION_MAPPING, f'model_type must be one of {list(MODEL_FUNCTION_MAPPING)}'
    model_func = MODEL_FUNCTION_MAPPING[model_type]
    model_key = partial(model_func, **model_kwargs)
    return model_key


def get_model(model_key):
    if model_key not in MODEL_ZOO:
        MODEL_ZOO[model_key] = model_key()
    return MODEL_ZOO[model_key]
