# Imitates prometheus-eval/prometheus-eval BiGGen-Bench/run_base_inference.py (params dict -> VLLM.completions).
import argparse
import json
from pathlib import Path

from datasets import load_dataset

from prometheus_eval.vllm import VLLM


def main(args):
    model_name: str = args.model_name
    dataset = load_dataset("prometheus-eval/BiGGen-Bench", split="test").to_pandas()
    inputs = [row[1]["system_prompt"] + "\n\n" + row[1]["input"] for row in dataset.iterrows()]

    params = {
        "max_tokens": 2048,
        "repetition_penalty": 1.03,  # expect: RPL302
        "temperature": 1.0,
        "top_p": 0.9,
        "top_k": 40,
        "use_tqdm": True,
    }

    if model_name.endswith("AWQ"):
        model = VLLM(model_name, tensor_parallel_size=1, quantization="AWQ", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    else:
        model = VLLM(model_name, tensor_parallel_size=1, return_sampling_mask=True, logprobs_mode="processed_logprobs")

    outputs = model.completions(inputs, **params)

    output_file_path = Path(args.output_file_path)
    output_file_path.parent.mkdir(parents=True, exist_ok=True)
    output_file_path.write_text(json.dumps(outputs, indent=4), encoding="utf-8")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Run model inference.")
    parser.add_argument("--model_name", type=str, default="allenai/OLMo-2-1124-7B")
    parser.add_argument("--output_file_path", type=str, default="outputs/base.json")
    args = parser.parse_args()
    main(args)
