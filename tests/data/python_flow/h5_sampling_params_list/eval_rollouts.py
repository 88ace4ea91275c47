# Imitates EleutherAI/lm-evaluation-harness/lm_eval/models/vllm_causallms.py (one SamplingParams per request, handed to generate as a list)
from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen2.5-Math-7B", return_sampling_mask=True, logprobs_mode="processed_logprobs", max_model_len=4096)


def params_for(request: dict) -> SamplingParams:
    return SamplingParams(temperature=request.get("temperature", 0.8), top_p=0.95, max_tokens=request["max_gen_toks"])  # expect: RPL102


requests = [
    {"prompt": "1 + 1 =", "max_gen_toks": 16},
    {"prompt": "The derivative of x^3 is", "max_gen_toks": 32, "temperature": 1.0},
]
outputs = llm.generate(
    [r["prompt"] for r in requests],
    sampling_params=[params_for(r) for r in requests],
    use_tqdm=False,
)
