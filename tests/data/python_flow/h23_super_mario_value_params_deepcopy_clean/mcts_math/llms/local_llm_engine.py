# Imitates MARIO-Math-Reasoning/Super_MARIO mcts_math/llms/local_llm_engine.py (llm_init(config) builds
# LLM + SamplingParams from the config); the user turned sampling replay on.
import os

from vllm import LLM, SamplingParams


def llm_init(config):
    GPUS = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")
    llm = LLM(
        model=config.model_dir,
        tensor_parallel_size=len(GPUS),
        trust_remote_code=True,
        seed=config.seed,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    sampling_params = SamplingParams(
        temperature=config.temperature,
        top_k=config.top_k,
        top_p=config.top_p,
        max_tokens=config.max_tokens,
        n=config.n_generate_sample,
        stop=config.stop,
    )
    return llm, sampling_params


def llm_engine(config):
    llm, sampling_params = llm_init(config)
    return llm, sampling_params
