# Imitates llllvvuu/meta-hacker-cup-solver sample_n.py (n and the model from sys.argv, the problem on stdin)
import sys

from vllm import LLM, SamplingParams

n = int(sys.argv[1]) if len(sys.argv) > 1 else 32
model = sys.argv[2] if len(sys.argv) > 2 else "Qwen/Qwen2.5-14B"
prompts = [sys.stdin.read()]
sampling_params = SamplingParams(max_tokens=1024, n=n, top_k=50)
llm = LLM(
    model=model,
    max_model_len=2048,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config={
        "method": "ngram",
        "num_speculative_tokens": 4,
        "prompt_lookup_max": 4,
        "enable_adaptive_verification": True,  # expect: RPL002
    },
)
outputs = llm.generate(prompts, sampling_params)
for output in outputs:
    prompt = output.prompt
    generated_text = output.outputs[0].text
    print(f"Prompt: {prompt}, Generated text: {generated_text}")
