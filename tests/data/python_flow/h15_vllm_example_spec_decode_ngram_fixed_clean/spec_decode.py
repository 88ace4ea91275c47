# Imitates vllm-project/vllm examples/offline_inference/spec_decode.py (argparse, speculative_config built per --method)
import argparse

from vllm import LLM, SamplingParams


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-dir", type=str, default="meta-llama/Llama-3.1-8B-Instruct")
    parser.add_argument("--method", type=str, default="ngram", choices=["ngram", "eagle", "eagle3", "mtp"])
    parser.add_argument("--num-spec-tokens", type=int, default=2)
    parser.add_argument("--prompt-lookup-max", type=int, default=5)
    parser.add_argument("--prompt-lookup-min", type=int, default=2)
    parser.add_argument("--adaptive-verification", action="store_true")
    parser.add_argument("--tp", type=int, default=1)
    parser.add_argument("--enforce-eager", action="store_true")
    parser.add_argument("--temp", type=float, default=0.7)
    parser.add_argument("--top-k", type=int, default=20)
    parser.add_argument("--output-len", type=int, default=256)
    return parser.parse_args()


def main(args):
    if args.method == "ngram":
        speculative_config = {
            "method": "ngram",
            "num_speculative_tokens": args.num_spec_tokens,
            "prompt_lookup_max": args.prompt_lookup_max,
            "prompt_lookup_min": args.prompt_lookup_min,
        }
    else:
        speculative_config = {
            "method": args.method,
            "model": f"{args.model_dir}-{args.method}",
            "num_speculative_tokens": args.num_spec_tokens,
        }
    if args.adaptive_verification:
        speculative_config["enable_adaptive_verification"] = True

    llm = LLM(
        model=args.model_dir,
        trust_remote_code=True,
        tensor_parallel_size=args.tp,
        enforce_eager=args.enforce_eager,
        gpu_memory_utilization=0.9,
        speculative_config=speculative_config,
        disable_log_stats=False,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

    sampling_params = SamplingParams(temperature=args.temp, top_k=args.top_k, max_tokens=args.output_len)
    outputs = llm.generate(["The future of AI is"], sampling_params=sampling_params)
    for output in outputs:
        print(output.outputs[0].text)


if __name__ == "__main__":
    main(parse_args())
