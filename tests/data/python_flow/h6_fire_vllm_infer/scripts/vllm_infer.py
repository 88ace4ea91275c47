# Imitates hiyouga/LLaMA-Factory/scripts/vllm_infer.py (a fire.Fire entry point whose keyword defaults
# are the sampling parameters, engine_args built as a dict and updated from a JSON `vllm_config`)
import json

import fire
from vllm import LLM, SamplingParams


def vllm_infer(
    model_name_or_path: str,
    dataset: str = "alpaca_en_demo",
    cutoff_len: int = 2048,
    vllm_config: str = "{}",
    save_name: str = "generated_predictions.jsonl",
    temperature: float = 0.95,
    top_p: float = 0.7,
    top_k: int = -1,  # expect: RPL102
    max_new_tokens: int = 1024,
    batch_size: int = 16,
):
    engine_args = {
        "model": model_name_or_path,
        "trust_remote_code": True,
        "max_model_len": cutoff_len + max_new_tokens,
        "disable_log_stats": True,
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
    }
    engine_args.update(json.loads(vllm_config))
    llm = LLM(**engine_args)

    sampling_params = SamplingParams(
        temperature=temperature,
        top_p=top_p,
        top_k=top_k,
        max_tokens=max_new_tokens,
    )
    prompts = [json.loads(line)["instruction"] for line in open(f"data/{dataset}.jsonl")]
    with open(save_name, "w", encoding="utf-8") as f:
        for start in range(0, len(prompts), batch_size):
            for result in llm.generate(prompts[start : start + batch_size], sampling_params):
                f.write(json.dumps({"predict": result.outputs[0].text}) + "\n")


if __name__ == "__main__":
    fire.Fire(vllm_infer)
