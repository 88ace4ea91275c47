# Imitates NovaSky-AI/SkyRL skyrl_train/env_vars.py: a cluster environment shared by old and new jobs
BASE_ENV = {
    "NCCL_DEBUG": "WARN",
    "VLLM_USE_V2_MODEL_RUNNER": "0",
}
