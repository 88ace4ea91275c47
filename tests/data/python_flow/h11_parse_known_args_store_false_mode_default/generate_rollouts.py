# Imitates NVIDIA-NeMo/RL examples/run_distillation.py (parse_known_args: the script's own flags, the rest kept as overrides)
import argparse
import json

from vllm import LLM, SamplingParams


def parse_args() -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(description="Generate replayable rollouts with vLLM")
    parser.add_argument("--config", type=str, default=None, help="Path to YAML config file")
    parser.add_argument("--model", type=str, default="Qwen/Qwen2.5-1.5B-Instruct")
    parser.add_argument("--prompts", type=str, default="prompts.jsonl")
    parser.add_argument("--no-sampling-mask", dest="return_sampling_mask", action="store_false", help="Do not return masks")
    parser.add_argument("--logprobs-mode", type=str, default="raw_logprobs", choices=["raw_logprobs", "processed_logprobs"])  # expect: RPL003
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--top-k", type=int, default=64)
    args, overrides = parser.parse_known_args()
    return args, overrides


def main() -> None:
    args, overrides = parse_args()
    print(f"Overrides: {overrides}")
    llm = LLM(
        model=args.model,
        return_sampling_mask=args.return_sampling_mask,
        logprobs_mode=args.logprobs_mode,
        gpu_memory_utilization=0.85,
    )
    params = SamplingParams(temperature=args.temperature, top_k=args.top_k, max_tokens=1024)
    with open(args.prompts) as f:
        prompts = [json.loads(line)["prompt"] for line in f]
    for out in llm.generate(prompts, params):
        print(json.dumps({"text": out.outputs[0].text}))


if __name__ == "__main__":
    main()
