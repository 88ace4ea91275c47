# Imitates allenai/olmocr olmocr/pipeline.py (the extra `vllm serve` words of vllm_server_task), split into a module
import json

# OCR pages repeat their own text a lot: n-gram drafting from the prompt is cheap here.
SPECULATIVE_CONFIG = {
    "method": "ngram",
    "num_speculative_tokens": 4,
    "prompt_lookup_max": 4,
    "enable_adaptive_verification": True,  # expect: RPL002
}

REPLAY_SERVE_ARGS = [
    "--return-sampling-mask",
    "--logprobs-mode",
    "processed_logprobs",
    "--enable-scale-out",
    "--speculative-config",
    json.dumps(SPECULATIVE_CONFIG),
]
