# Imitates hkust-nlp/B-STaR train_code/vllm_infer.py (argparse defaults, LLM + SamplingParams built in
# sample_resp(args)); the user turned sampling replay on for the self-consistency sampling.
import argparse
import json

from vllm import LLM, SamplingParams


def sample_resp(args):
    with open(args.input_data, "r") as r:
        sample_data = json.load(r)
    llm = LLM(
        model=args.model_dir,
        tensor_parallel_size=args.tensor_parallel_size,
        return_sampling_mask=True,  # expect: RPL003
    )
    stop_tokens = ["\nQUESTION:\n", "Question:", "USER:", "ASSISTANT:", "\n\n\n\n", "<|end_of_text|>"]
    sampling_params = SamplingParams(max_tokens=args.max_tokens, temperature=args.temperature, top_k=args.top_k, n=args.sample_num, stop=stop_tokens)
    all_input = [item["input"] for item in sample_data]
    outputs = llm.generate(all_input, sampling_params)
    with open(args.output_file, "w") as w:
        json.dump([o.outputs[0].text for o in outputs], w)


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--input_data", type=str)
    parser.add_argument("--model_dir", type=str, default="meta-llama/Meta-Llama-3-8B")
    parser.add_argument("--sample_num", type=int, default=10)
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--top_k", type=int, default=20)
    parser.add_argument("--max_tokens", type=int, default=768)
    parser.add_argument("--output_file", type=str)
    parser.add_argument("--tensor_parallel_size", type=int, default=1)
    return parser.parse_args()


if __name__ == "__main__":
    args = parse_args()
    sample_resp(args=args)
