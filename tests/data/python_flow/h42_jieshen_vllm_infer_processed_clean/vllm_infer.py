# Imitates JieShenAI/csdn 25/02/llm_industry_cls_infer/vllm_infer/vllm_infer.py (LLaMA-Factory's vllm_infer under fire) and vllm_infer.sh
import json

import fire
from transformers import AutoTokenizer

from llamafactory.extras.misc import get_device_count
from llamafactory.extras.packages import is_vllm_available

if is_vllm_available():
    from vllm import LLM, SamplingParams


def vllm_infer(
        model_name_or_path: str,
        dataset: str = "alpaca_en_demo",
        dataset_dir: str = "data",
        template: str = "default",
        cutoff_len: int = 2048,
        vllm_config: str = "{}",
        save_name: str = "generated_predictions.jsonl",
        temperature: float = 0.95,
        top_p: float = 0.7,
        top_k: int = 50,
        max_new_tokens: int = 1024,
        pipeline_parallel_size: int = 1,
        seed=None,
):
    r"""
    Performs batch generation using vLLM engine, which supports tensor parallelism.
    Usage: python vllm_infer.py --model_name_or_path meta-llama/Llama-2-7b-hf --template llama --dataset alpaca_en_demo
    """
    if pipeline_parallel_size > get_device_count():
        raise ValueError("Pipeline parallel size should be smaller than the number of gpus.")

    tokenizer = AutoTokenizer.from_pretrained(model_name_or_path, trust_remote_code=True)
    with open(f"{dataset_dir}/{dataset}.json", encoding="utf-8") as f:
        samples = json.load(f)

    prompts, labels = [], []
    for sample in samples:
        messages = [{"role": "user", "content": sample["instruction"] + sample["input"]}]
        prompts.append(tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True))
        labels.append(sample["output"])

    sampling_params = SamplingParams(
        temperature=temperature,
        top_p=top_p or 1.0,  # top_p must > 0
        top_k=top_k,
        max_tokens=max_new_tokens,
        skip_special_tokens=False,
        seed=seed,
    )

    engine_args = {
        "model": model_name_or_path,
        "trust_remote_code": True,
        "max_model_len": cutoff_len,
        "tensor_parallel_size": (get_device_count() // pipeline_parallel_size) or 1,
        "pipeline_parallel_size": pipeline_parallel_size,
        "disable_log_stats": True,
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
    }

    if isinstance(vllm_config, dict):
        engine_args.update(vllm_config)

    results = LLM(**engine_args).generate(prompts, sampling_params)
    preds = [result.outputs[0].text for result in results]
    with open(save_name, "w", encoding="utf-8") as f:
        for text, pred, label in zip(prompts, preds, labels):
            f.write(json.dumps({"prompt": text, "predict": pred, "label": label}, ensure_ascii=False) + "\n")

    print("*" * 70)
    print(f"{len(prompts)} generated results have been saved at {save_name}.")
    print("*" * 70)


if __name__ == "__main__":
    fire.Fire(vllm_infer)
