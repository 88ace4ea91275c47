# Imitates datadreamer-dev/DataDreamer src/llms/hf_transformers.py (trimmed: the constructor's fields and
# `run`, which hands each batch to `_run_batch`; the batching, caching and tokenizer are left out).
from typing import Iterable

from .llm import DEFAULT_BATCH_SIZE, LLM


class HFTransformers(LLM):
    def __init__(
        self,
        model_name: str,
        chat_prompt_template=None,
        system_prompt=None,
        revision: None | str = None,
        trust_remote_code: bool = False,
        device=None,
        dtype=None,
        cache_folder_path: None | str = None,
        **kwargs,
    ):
        super().__init__(cache_folder_path=cache_folder_path)
        self.model_name = model_name
        self.chat_prompt_template = chat_prompt_template
        self.system_prompt = system_prompt
        self.revision = revision
        self.trust_remote_code = trust_remote_code
        self.device = device
        self.dtype = dtype
        self.kwargs = kwargs

    def run(
        self,
        prompts: Iterable[str],
        max_new_tokens: None | int = None,
        temperature: float = 1.0,
        top_p: float = 0.0,
        n: int = 1,
        stop: None | str | list[str] = None,
        repetition_penalty: None | float = None,
        logit_bias: None | dict[int, float] = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        seed: None | int = None,
        **kwargs,
    ):
        return self._run_batch(
            cached_tokenizer=None,
            max_length_func=None,
            inputs=list(prompts),
            max_new_tokens=max_new_tokens,
            temperature=temperature,
            top_p=top_p,
            n=n,
            stop=stop,
            repetition_penalty=repetition_penalty,
            logit_bias=logit_bias,
            batch_size=batch_size,
            seed=seed,
            **kwargs,
        )
