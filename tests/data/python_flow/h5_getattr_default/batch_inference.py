# Imitates OpenRLHF/OpenRLHF/openrlhf/cli/batch_inference.py (engine options read from args, one with getattr and a fallback)
import argparse

from vllm import LLM, SamplingParams


def batch_generate_vllm(args):
    llm = LLM(
        model=args.pretrain,
        tensor_parallel_size=args.tp_size,
        seed=args.seed,
        max_num_seqs=args.max_num_seqs,
        enable_prefix_caching=args.enable_prefix_caching,
        return_sampling_mask=args.return_sampling_mask,
        logprobs_mode=getattr(args, "logprobs_mode", "raw_logprobs"),  # expect: RPL003
    )
    params = SamplingParams(temperature=args.temperature, top_k=args.top_k, max_tokens=args.max_new_tokens)
    with open(args.dataset) as f:
        prompts = [line.strip() for line in f]
    for output in llm.generate(prompts, params):
        print(output.outputs[0].text)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--pretrain", type=str, default="meta-llama/Llama-3.1-8B-Instruct")
    parser.add_argument("--dataset", type=str, required=True)
    parser.add_argument("--tp_size", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--max_num_seqs", type=int, default=256)
    parser.add_argument("--enable_prefix_caching", action="store_true", default=False)
    parser.add_argument("--return_sampling_mask", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--top_k", type=int, default=50)
    parser.add_argument("--max_new_tokens", type=int, default=1024)
    args = parser.parse_args()
    batch_generate_vllm(args)
