# Imitates NVIDIA/TensorRT-Model-Optimizer examples/specdec_bench/run.py (argparse flags forwarded to the model
# class as keywords).
import argparse

from vllm_model import VLLMModel

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", type=str, default="meta-llama/Llama-3.1-8B-Instruct")
    parser.add_argument("--speculative_algorithm", type=str, default="NGRAM", choices=["NGRAM", "NONE"])
    parser.add_argument("--draft_length", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=1)
    args = parser.parse_args()
    VLLMModel(
        args.model_dir,
        args.concurrency,
        {"temperature": 1.0, "top_k": 20},
        speculative_algorithm=args.speculative_algorithm,
        speculative_num_steps=args.draft_length,
    )
