# Imitates willccbb/verifiers verifiers/inference/vllm_server.py defaults: engine and sampling settings of the project
VLLM_KWARGS = {
    "model": "willcb/Qwen3-1.7B",
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "max_model_len": 8192,
}
SAMPLING = {"temperature": 1.0, "top_p": 1.0, "top_k": 40, "max_tokens": 1024}
