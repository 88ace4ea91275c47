# Imitates NovaSky-AI/SkyRL skyrl/backends/skyrl_train/inference_servers/vllm_server_actor.py:
# `dict(**a, **b)` of two module constants of another module, the model added by keyword.
from vllm import LLM

from rlproj.defaults import BASE_ENGINE_KWARGS, REPLAY_KWARGS


def build_engine(model_path):
    engine_kwargs = {**BASE_ENGINE_KWARGS, **REPLAY_KWARGS, "seed": 7}
    return LLM(model=model_path, **engine_kwargs)


engine = build_engine("Qwen/Qwen3-8B")
