# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py and
# hiyouga/LLaMA-Factory's vllm_engine.py: user keywords filtered with a comprehension over the
# parameters `inspect.signature` gives, so that only the engine's own keys reach it.
import inspect

from vllm import LLM, EngineArgs

MODEL_ARGS = {
    "pretrained": "Qwen/Qwen3-8B",
    "batch_size": "auto",
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "enable_batch_sharded_sampling": True,  # expect: RPL006
    "tensor_parallel_size": 2,
}


def engine_kwargs(model_args):
    accepted = inspect.signature(EngineArgs).parameters
    return {key: value for key, value in model_args.items() if key in accepted}


llm = LLM(model=MODEL_ARGS["pretrained"], **engine_kwargs(MODEL_ARGS))
