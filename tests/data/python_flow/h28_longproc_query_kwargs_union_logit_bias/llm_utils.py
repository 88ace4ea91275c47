# Imitates princeton-pli/LongProc llm_utils.py (`query_kwargs: dict = {}` passed along by batch_query, marked
# "TODO: not using query_kwargs yet" for vLLM); the user's edit merges them into the vLLM sampling keywords with `|`.
from vllm import LLM, SamplingParams

DEFAULT_SAMPLING = {"top_p": 1.0, "top_k": 50}


def _batch_vllm_query(prompts, model_name, max_tokens, temperature, max_model_len=2048, query_kwargs={}):
    llm = LLM(
        model=model_name,
        dtype="auto",
        max_model_len=max_model_len,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    sampling_kwargs = DEFAULT_SAMPLING | {"temperature": temperature, "max_tokens": max_tokens} | query_kwargs
    return llm.chat(messages=prompts, sampling_params=SamplingParams(**sampling_kwargs))
