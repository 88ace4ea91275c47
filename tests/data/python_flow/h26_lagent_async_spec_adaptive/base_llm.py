# Imitates InternLM/lagent lagent/llms/base_llm.py (BaseLLM: gen_params dict, update_gen_params).
from copy import copy


class BaseLLM:
    def __init__(self, path, tokenizer_only=False, meta_template=None, *,
                 max_new_tokens=512, top_p=0.8, top_k=40, temperature=0.8,
                 repetition_penalty=1.0, stop_words=None):
        self.path = path
        self.tokenizer_only = tokenizer_only
        self.meta_template = meta_template
        if isinstance(stop_words, str):
            stop_words = [stop_words]
        self.gen_params = dict(
            max_new_tokens=max_new_tokens,
            top_p=top_p,
            top_k=top_k,
            temperature=temperature,
            repetition_penalty=repetition_penalty,
            stop_words=stop_words)

    def update_gen_params(self, **kwargs):
        gen_params = copy(self.gen_params)
        gen_params.update(kwargs)
        return gen_params
