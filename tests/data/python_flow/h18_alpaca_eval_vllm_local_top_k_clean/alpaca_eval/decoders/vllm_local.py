# Imitates tatsu-lab/alpaca_eval src/alpaca_eval/decoders/vllm_local.py (`vllm_local_completions`, global engine, attribute writes on SamplingParams)
import logging
from typing import Optional, Sequence

from vllm import LLM, SamplingParams

__all__ = ["vllm_local_completions"]

llm = None
llmModelName = None


def vllm_local_completions(
    prompts: Sequence[str],
    model_name: str,
    max_new_tokens: int,
    do_sample: bool = False,
    batch_size: int = 1,
    model_kwargs=None,
    cache_dir: Optional[str] = None,
    **kwargs,
) -> dict[str, list]:
    global llm, llmModelName
    tp = 1
    if "tp" in model_kwargs:
        tp = model_kwargs["tp"]
    if llm is None:
        logging.info("vllm: loading model: %s, tp=%d", model_name, tp)
        llm = LLM(
            model=model_name,
            tokenizer=model_name,
            tensor_parallel_size=tp,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        llmModelName = model_name
    if model_name != llmModelName:
        assert False, "vllm_local_completions can only be used with a single model"

    sampling_params = SamplingParams(max_tokens=max_new_tokens)
    if "temperature" in kwargs:
        sampling_params.temperature = kwargs["temperature"]
    if "top_p" in kwargs:
        sampling_params.top_p = kwargs["top_p"]
    if "top_k" in kwargs:
        sampling_params.top_k = kwargs["top_k"]
    completions = []
    for i in range(0, len(prompts), batch_size):
        batch = prompts[i : i + batch_size]
        outputs = llm.generate(batch, sampling_params)
        for j in range(0, len(batch)):
            completions.append(outputs[j].outputs[0].text)
    return dict(completions=completions)
