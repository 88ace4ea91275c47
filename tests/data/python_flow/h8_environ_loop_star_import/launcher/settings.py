# Imitates rllm-org/rllm rllm/globals.py: the engine's environment and arguments kept as module constants
VLLM_ENV = {
    "VLLM_USE_V2_MODEL_RUNNER": "0",  # expect: RPL206 "no longer supported"
    "VLLM_LOGGING_LEVEL": "WARNING",
}
ENGINE_ARGS = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs", "max_model_len": 8192}
