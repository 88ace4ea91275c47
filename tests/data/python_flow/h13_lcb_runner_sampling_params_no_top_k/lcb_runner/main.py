# Imitates LiveCodeBench/LiveCodeBench lcb_runner/runner/main.py: parse, build the runner, run it.
import json

from lcb_runner.parser import get_args
from lcb_runner.vllm_runner import VLLMRunner


def main():
    args = get_args()
    runner = VLLMRunner(args, args.model)
    with open("prompts.jsonl") as f:
        prompts = [json.loads(line)["prompt"] for line in f]
    outputs = runner.run_batch(prompts)
    with open("generations.json", "w") as f:
        json.dump(outputs, f)


if __name__ == "__main__":
    main()
