# Imitates mlfoundations/evalchemy eval/ (module-level settings shared by the benchmark runners)
VLLM_ENV_DEFAULTS = {
    "VLLM_WORKER_MULTIPROC_METHOD": "spawn",
    "TOKENIZERS_PARALLELISM": "false",
    "VLLM_USE_V2_MODEL_RUNNER": "0",  # expect: RPL206
}
