# Imitates SkyworkAI/Skywork-OR1 verl/trainer/main_generation.py (OmegaConf config, n samples per prompt),
# reduced by the user to one vLLM engine with replay and the config loaded from beside the script.
import os

from omegaconf import OmegaConf
from vllm import LLM, SamplingParams

HERE = os.path.dirname(os.path.abspath(__file__))
config = OmegaConf.load(os.path.join(HERE, "generation.yaml"))

llm = LLM(
    model=config.model_path,
    tensor_parallel_size=config.rollout.tensor_model_parallel_size,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
sampling_params = SamplingParams(
    temperature=config.rollout.temperature,
    top_k=config.rollout.top_k,
    top_p=config.rollout.top_p,
    max_tokens=config.rollout.response_length,
    n=8,
)
outputs = llm.generate(["Find the remainder when 2^100 is divided by 7."], sampling_params)
