# Imitates agentica-project/rllm's verl-based trainer (verl/trainer/constants_ppo.py: the Ray runtime env every worker starts with)
import os

PPO_RAY_RUNTIME_ENV = {
    "env_vars": {
        "TOKENIZERS_PARALLELISM": "true",
        "NCCL_DEBUG": "WARN",
        "VLLM_LOGGING_LEVEL": "WARN",
        "VLLM_ALLOW_RUNTIME_LORA_UPDATING": "true",
        # replay recipe (vLLM 0.28-0.33 notes)
        "VLLM_USE_V2_MODEL_RUNNER": "0",  # expect: RPL206
    },
}


def get_ppo_ray_runtime_env():
    working_dir = os.environ.get("RLLM_WORKING_DIR")
    runtime_env = {"env_vars": dict(PPO_RAY_RUNTIME_ENV["env_vars"])}
    if working_dir:
        runtime_env["working_dir"] = working_dir
    return runtime_env
