# Imitates NVIDIA/TensorRT-Model-Optimizer examples/specdec_bench/run.py (argparse; `sampling_kwargs` built from
# the temperature/top_p flags and handed to the model class).
import argparse
import asyncio

from specdec_bench.models import VLLMModel


def run(args):
    sampling_kwargs = {"temperature": args.temperature, "top_p": args.top_p}
    model = VLLMModel(
        args.model_dir,
        args.concurrency,
        sampling_kwargs,
        speculative_algorithm=args.speculative_algorithm,
        tensor_parallel_size=args.tp_size,
    )
    model.loop.run_until_complete(model.run([1, 2, 3], 64, 2, 0))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", type=str, default="meta-llama/Llama-3.1-8B-Instruct")
    parser.add_argument("--speculative_algorithm", type=str, default="NONE")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--tp_size", type=int, default=1)
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--top_p", type=float, default=1.0)
    run(parser.parse_args())
