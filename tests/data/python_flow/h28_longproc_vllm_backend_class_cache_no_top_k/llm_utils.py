# Imitates princeton-pli/LongProc llm_utils.py (`_VLLMBackend` class attributes holding the engine built on first
# use; `_batch_vllm_query`'s `SamplingParams(temperature=temperature, max_tokens=max_tokens, top_p=top_p)`;
# batch_query dispatching on the "vllm/" prefix), replay turned on in the engine.
from typing import Any, List


class _VLLMBackend:
    llm = None
    tokenizer = None
    init_args = None


def _batch_vllm_query(prompts: List[Any], model_name: str, max_tokens: int, temperature: float, top_p: float = 1.0,
                      max_model_len: int = None, aux_kwargs: dict = {}):
    model_name = model_name[len("vllm/"):]
    from vllm import LLM, SamplingParams

    if _VLLMBackend.llm is None:
        _VLLMBackend.llm = LLM(
            model=model_name,
            dtype="auto",
            max_model_len=max_model_len,
            gpu_memory_utilization=aux_kwargs.get("vllm_gpu_memory_utilization", 0.95),
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        _VLLMBackend.init_args = (model_name, max_model_len)
    llm = _VLLMBackend.llm
    sampling_params = SamplingParams(temperature=temperature, max_tokens=max_tokens, top_p=top_p)  # expect: RPL102
    outputs = llm.chat(messages=prompts, sampling_params=sampling_params, use_tqdm=True)
    return [{"model": model_name, "prompt": p, "output": o.outputs[0].text} for p, o in zip(prompts, outputs)]


def batch_query(prompts, model_name, gen_max_tokens, temperature, top_p=1.0, max_model_len=None, aux_kwargs={}):
    if model_name.startswith("vllm/"):
        return _batch_vllm_query(prompts, model_name, gen_max_tokens, temperature, top_p, max_model_len,
                                 aux_kwargs=aux_kwargs)
    raise NotImplementedError
