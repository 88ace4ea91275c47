# Imitates sail-sg/understand-r1-zero evaluate_model.py (fire.Fire(main), keyword defaults into vllm.LLM and vllm.SamplingParams)
import json

import fire
import vllm

TEMPLATES = {
    "qwen_math": "<|im_start|>system\nPlease reason step by step, and put your final answer within \\boxed{{}}.<|im_end|>\n<|im_start|>user\n{question}<|im_end|>\n<|im_start|>assistant\n",
    "no": "{question}",
}


def main(
    model_name: str = "Qwen/Qwen2.5-Math-1.5B",
    template: str = "qwen_math",
    dataset_name: str = "datasets/evaluation_suite",
    temperature: float = 0,  # expect: RPL101
    top_p: float = 1,
    top_k: int = 20,
    max_tokens: int = 3000,
    max_model_len: int = 4096,
    n_samples: int = 1,
    seed: int = 42,
):
    sampling_params = vllm.SamplingParams(
        n=n_samples,
        temperature=temperature,
        top_p=top_p,
        top_k=top_k,
        max_tokens=max_tokens,
        seed=seed,
    )
    model = vllm.LLM(
        model_name,
        max_model_len=max_model_len,
        dtype="bfloat16",
        enable_prefix_caching=True,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    with open(f"{dataset_name}/math500.jsonl") as f:
        questions = [json.loads(line)["problem"] for line in f]
    prompts = [TEMPLATES[template].format(question=q) for q in questions]
    outputs = model.generate(prompts, sampling_params)
    print(len(outputs))


if __name__ == "__main__":
    fire.Fire(main)
