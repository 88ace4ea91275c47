# Imitates lm-sys/RouteLLM routellm/evals/gsm8k/generate_responses.py (SimpleNamespace(**evaluate_args_base)); token ids to the replay route.
import json
import os
from types import SimpleNamespace

import requests
from transformers import AutoTokenizer


def read_jsonl(filename: str):
    with open(filename) as fin:
        return [json.loads(line) for line in fin if not line.startswith("#")]


def main(args):
    current_dir = os.path.dirname(os.path.abspath(__file__))
    lines = read_jsonl(f"{current_dir}/test.jsonl")
    tokenizer = AutoTokenizer.from_pretrained(args.backend)
    responses = []
    for line in lines:
        token_ids = tokenizer.encode("Question: " + line["question"] + "\nAnswer:")
        resp = requests.post(
            f"{args.host}:{args.port}/inference/v1/generate",
            json={
                "model": args.backend,
                "token_ids": token_ids,
                "sampling_params": {"temperature": 0.7, "top_k": 20, "max_tokens": 1024, "stop": ["Question"]},
            },
            timeout=600,
        )
        responses.append(resp.json())
    return responses


evaluate_args_base = {
    "parallel": 64,
    "host": "http://localhost",
    "port": "6060",
}
weak_responses = main(
    SimpleNamespace(**evaluate_args_base, backend="mistralai/Mistral-7B-Instruct-v0.3"),
)
