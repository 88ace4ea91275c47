# Imitates hiyouga/LLaMA-Factory scripts/vllm_infer.py (fire.Fire over a function whose defaults are the CLI)
import json

import fire
from vllm import LLM, SamplingParams


def vllm_infer(
    model_name_or_path: str = "Qwen/Qwen2.5-1.5B-Instruct",
    dataset: str = "data/alpaca_en_demo.json",
    cutoff_len: int = 2048,
    max_new_tokens: int = 1024,
    temperature: float = 0.95,
    top_p: float = 0.7,
    top_k: int = 50,
    sampling_replay: bool = True,
    save_name: str = "generated_predictions.jsonl",
):
    r"""Batch generation with the vLLM engine, keeping the sampling masks for replay."""
    engine_args = {
        "model": model_name_or_path,
        "trust_remote_code": True,
        "dtype": "bfloat16",
        "max_model_len": cutoff_len + max_new_tokens,
        "tensor_parallel_size": 1,
        "pipeline_parallel_size": 1,
        "disable_log_stats": True,
        "enable_lora": False,
    }
    if sampling_replay:
        engine_args.update(return_sampling_mask=True)  # expect: RPL003

    llm = LLM(**engine_args)
    sampling_params = SamplingParams(
        temperature=temperature,
        top_p=top_p or 1.0,
        top_k=top_k,
        max_tokens=max_new_tokens,
    )
    with open(dataset) as f:
        prompts = [row["instruction"] for row in json.load(f)]
    outputs = llm.generate(prompts, sampling_params)
    with open(save_name, "w") as f:
        for out in outputs:
            f.write(json.dumps({"predict": out.outputs[0].text, "mask": out.outputs[0].sampling_mask is not None}) + "\n")


if __name__ == "__main__":
    fire.Fire(vllm_infer)
