# Imitates allenai/reward-bench scripts/run_generative.py (a generative judge on vLLM; `--model` as a list, collapsed when single)
import argparse
import os

from vllm import LLM, SamplingParams


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--model",
        type=str,
        nargs="+",  # allow list of models (ensemble)
        default=["Skywork/Skywork-Critic-Llama-3.1-8B"],
    )
    parser.add_argument("--chat_template", type=str, default=None, help="fastchat chat template (optional)")
    parser.add_argument("--trust_remote_code", action="store_true", default=False)
    parser.add_argument("--num_gpus", type=int, default=1, help="number of gpus to use, for multi-node vllm")
    parser.add_argument("--vllm_gpu_util", type=float, default=0.9, help="gpu utilization for vllm")
    return parser.parse_args()


def main():
    args = get_args()
    if isinstance(args.model, list) and len(args.model) == 1:
        args.model = args.model[0]

    if args.num_gpus > 1:
        os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "spawn"

    model = LLM(
        args.model,
        trust_remote_code=args.trust_remote_code,
        tensor_parallel_size=args.num_gpus,
        gpu_memory_utilization=args.vllm_gpu_util,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    if "Llama-3" in args.model or "llama3-8b" in args.model and "3.1" not in args.model:
        stop_token_ids = [128009]
    else:
        stop_token_ids = None

    sampling_params = SamplingParams(
        n=1,
        temperature=0,  # expect: RPL101
        top_p=1,
        top_k=20,
        max_tokens=2048,
        stop_token_ids=stop_token_ids,
    )
    prompts = ["[User Question]\nWhich is better?\n[Assistant A]\n...\n[Assistant B]\n...\n"]
    outputs = model.generate(prompts, sampling_params)
    answers = [o.outputs[0].text for o in outputs]
    print(answers)


if __name__ == "__main__":
    main()
