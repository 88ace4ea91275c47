# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py: the harness's own
# keys (`pretrained`, `batch_size`, `max_batch_size`, a logits processor of its own wrapper) are
# dropped by a comprehension over a set of engine keys before the rest reach `LLM(...)`.
from vllm import LLM

ENGINE_KEYS = {"tensor_parallel_size", "return_sampling_mask", "logprobs_mode", "seed", "max_model_len"}

MODEL_ARGS = {
    "pretrained": "Qwen/Qwen3-8B",
    "batch_size": "auto",
    "max_batch_size": None,
    "logits_processors": ["lm_eval.filters.Clamp"],
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "seed": 1234,
}


def engine_kwargs(model_args):
    return {key: value for key, value in model_args.items() if key in ENGINE_KEYS and value is not None}


llm = LLM(model=MODEL_ARGS["pretrained"], **engine_kwargs(MODEL_ARGS))
