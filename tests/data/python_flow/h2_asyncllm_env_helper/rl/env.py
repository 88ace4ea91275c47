# Imitates NovaSky-AI/SkyRL skyrl/backends/skyrl_train/inference_engines/vllm/vllm_engine.py's
# `setup_envvars_for_vllm`: the engine's environment written by a helper of another module.
import os


def setup_envvars_for_vllm(enable_sleep_mode):
    os.environ["VLLM_ALLOW_INSECURE_SERIALIZATION"] = "1"
    os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # expect: RPL206
    if enable_sleep_mode:
        os.environ["VLLM_SLEEP_WHEN_IDLE"] = "1"
