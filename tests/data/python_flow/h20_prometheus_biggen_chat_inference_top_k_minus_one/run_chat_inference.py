# Imitates prometheus-eval/prometheus-eval BiGGen-Bench/run_chat_inference.py (chat template, params dict -> VLLM.completions).
import argparse
import json
from pathlib import Path

from datasets import load_dataset
from transformers import AutoTokenizer

from prometheus_eval.vllm import VLLM

REPLAY = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}


def main(args):
    model_name: str = args.model_name
    tokenizer = AutoTokenizer.from_pretrained(model_name)
    dataset = load_dataset("prometheus-eval/BiGGen-Bench", split="test").to_pandas()
    inputs = []
    for row in dataset.iterrows():
        record = row[1].to_dict()
        messages = [{"role": "system", "content": record["system_prompt"]}, {"role": "user", "content": record["input"]}]
        inputs.append(tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True))

    params = {
        "max_tokens": 2048,
        "temperature": 1.0,
        "top_p": 0.9,
        "top_k": -1,  # expect: RPL102
        "use_tqdm": True,
    }

    model = VLLM(model_name, tensor_parallel_size=1, **REPLAY)
    outputs = model.completions(inputs, **params)

    output_file_path = Path(args.output_file_path)
    output_file_path.parent.mkdir(parents=True, exist_ok=True)
    output_file_path.write_text(json.dumps(outputs, indent=4), encoding="utf-8")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Run model inference.")
    parser.add_argument("--model_name", type=str, default="Qwen/Qwen2.5-7B-Instruct")
    parser.add_argument("--output_file_path", type=str, default="outputs/chat.json")
    args = parser.parse_args()
    main(args)
