# Imitates lm-sys/RouteLLM routellm/evals/gsm8k/generate_responses.py (SimpleNamespace(**evaluate_args_base), OpenAI base_url).
import json
import os
from types import SimpleNamespace

from openai import OpenAI


def read_jsonl(filename: str):
    with open(filename) as fin:
        return [json.loads(line) for line in fin if not line.startswith("#")]


def select_backend(args):
    return OpenAI(base_url=f"{args.host}:{args.port}/v1", api_key="EMPTY")


def main(args):
    current_dir = os.path.dirname(os.path.abspath(__file__))
    lines = read_jsonl(f"{current_dir}/test.jsonl")
    client = select_backend(args)
    responses = []
    for line in lines:
        completion = client.chat.completions.create(  # expect: RPL301
            model=args.backend,
            messages=[{"role": "user", "content": "Question: " + line["question"] + "\nAnswer:"}],
            max_tokens=1024,
            temperature=0.7,
            stop=["Question"],
            extra_body={"top_k": 20},
        )
        responses.append(completion.choices[0].message.content)
    return responses


evaluate_args_base = {
    "parallel": 64,
    "host": "http://localhost",
    "port": "6060",
}
weak_responses = main(
    SimpleNamespace(**evaluate_args_base, backend="mistralai/Mistral-7B-Instruct-v0.3"),
)
