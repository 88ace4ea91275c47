# Imitates deepseek-ai/DeepSeek-Math evaluation/infer/run_pal_eval.py (PAL prompts, program execution loop), the engine made by a `functools.partial` factory
import argparse
import os
from functools import partial

from vllm import LLM, SamplingParams

make_engine = partial(
    LLM,
    trust_remote_code=True,
    max_model_len=4096,
    return_sampling_mask=True,  # expect: RPL003
)


def infer(args, test_data):
    prompts = [f"Question: {example['question']}\n\n# solution in Python:\n" for example in test_data]
    model = make_engine(
        model=args.model_name_or_path,
        tensor_parallel_size=len(os.environ["CUDA_VISIBLE_DEVICES"].split(",")),
    )
    sampling_params = SamplingParams(temperature=args.temperature, top_k=32, top_p=0.95, max_tokens=600, n=1, stop=["```output"])
    outputs = model.generate(prompts, sampling_params)
    return [output.outputs[0].text for output in outputs]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", type=str, default="deepseek-ai/deepseek-math-7b-instruct")
    parser.add_argument("--temperature", type=float, default=0.6)
    parser.add_argument("--gpus", type=str, default="0")
    args, unparsed_args = parser.parse_known_args()
    if args.gpus is not None:
        os.environ["CUDA_VISIBLE_DEVICES"] = args.gpus
    print(infer(args, [{"question": "What is the sum of the first 10 primes?"}]))
