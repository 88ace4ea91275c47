# Imitates NovaSky-AI/SkyRL skyrl_train/inference_engines/vllm/vllm_engine.py: engine keyword
# arguments combined with the dict union operators `|` and `|=` (Python 3.9+).
from vllm import LLM

COMMON = {"model": "Qwen/Qwen3-8B", "tensor_parallel_size": 1, "seed": 7}
REPLAY = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}


def make_engine(use_draft: bool = True) -> LLM:
    engine_kwargs = COMMON | REPLAY
    if use_draft:
        engine_kwargs |= {
            "speculative_config": {
                "method": "ngram",
                "num_speculative_tokens": 4,
                "enable_adaptive_verification": True,  # expect: RPL002
            }
        }
    return LLM(**engine_kwargs)


engine = make_engine()
