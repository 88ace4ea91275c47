# Imitates sbintuitions/flexeval flexeval/core/language_model/vllm_model.py (VllmModel: LLM(model_name, trust_remote_code=True,
# **model_kwargs); batch_complete_text greedy unless the caller gives a temperature; SamplingParams(**kwargs, stop=...)).
# Upstream passes prompt_token_ids= to generate, which vLLM 0.34.0 refuses whatever replay does: here a list of TokensPrompt.
from __future__ import annotations

from typing import Any

from transformers import AutoTokenizer


class VllmModel:
    def __init__(
        self,
        model_name: str,
        model_kwargs: dict[str, Any] | None = None,
        tokenizer_name: str | None = None,
        add_special_tokens: bool = False,
    ) -> None:
        tokenizer_name = tokenizer_name if tokenizer_name else model_name
        self._tokenizer = AutoTokenizer.from_pretrained(tokenizer_name)
        self._add_special_tokens = add_special_tokens

        from vllm import LLM

        model_kwargs = model_kwargs or {}
        self._llm = LLM(model_name, trust_remote_code=True, **model_kwargs)

    def batch_complete_text(self, text_list, stop_sequences=None, max_new_tokens=None, **kwargs):
        kwargs = kwargs.copy()  # avoid modifying the original kwargs

        # use greedy decoding by default
        if "temperature" not in kwargs:
            kwargs["temperature"] = 0.0  # expect: RPL101

        if max_new_tokens is not None:
            kwargs["max_tokens"] = max_new_tokens

        stop_sequences = list(stop_sequences or []) + [self._tokenizer.eos_token]
        model_inputs = self._tokenizer(text_list, add_special_tokens=self._add_special_tokens, return_token_type_ids=False)

        from vllm import SamplingParams
        from vllm.inputs import TokensPrompt

        vllm_outputs = self._llm.generate(
            [TokensPrompt(prompt_token_ids=ids) for ids in model_inputs.input_ids],
            sampling_params=SamplingParams(**kwargs, stop=stop_sequences),
            use_tqdm=False,
        )
        return [self._tokenizer.decode(outputs.outputs[0].token_ids) for outputs in vllm_outputs]
