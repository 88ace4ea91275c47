# Imitates tatsu-lab/alpaca_eval src/alpaca_eval/decoders/vllm_local.py (with decoders/__init__.py, main.py and a
# models_configs/<model>/configs.yaml), trimmed; replay turned on in the model config's model_kwargs.
import logging
from typing import Sequence

import numpy as np
from vllm import LLM, SamplingParams

from .. import utils

__all__ = ["vllm_local_completions"]

llm = None
llmModelName = None


def vllm_local_completions(
    prompts: Sequence[str],
    model_name: str,
    max_new_tokens: int,
    is_chatml_prompt: bool = False,
    batch_size: int | None = None,  # default of vllm is 256
    model_kwargs=None,
    **decoding_kwargs,
) -> dict[str, list]:
    """Decode locally using vllm transformers pipeline."""
    global llm, llmModelName
    model_kwargs = model_kwargs or {}
    if batch_size is not None:
        model_kwargs["max_num_seqs"] = batch_size

    if model_name != llmModelName:
        logging.info(f"vllm already loaded model: {llmModelName} but requested {model_name}. Let's switch...")
        llm = None

    if llm is None:
        logging.info(f"vllm: loading model: {model_name}, {model_kwargs}")
        llm = LLM(model=model_name, tokenizer=model_name, **model_kwargs)
        llmModelName = model_name

    logging.info(f"Sampling kwargs: {decoding_kwargs}")
    sampling_params = SamplingParams(max_tokens=max_new_tokens, **decoding_kwargs)

    with utils.Timer() as t:
        outputs = llm.generate(prompts, sampling_params)
    completions = [output.outputs[0].text for output in outputs]
    price = [np.nan] * len(completions)
    avg_time = [t.duration / len(prompts)] * len(completions)
    return dict(completions=completions, price_per_example=price, time_per_example=avg_time)
