# Imitates deepseek-ai/DeepSeek-Math evaluation/infer/run_cot_eval.py (global `model`, `parse_known_args`, `--gpus` written to CUDA_VISIBLE_DEVICES)
import argparse
import os

from vllm import LLM, SamplingParams

from eval.utils import vllm_engine_kwargs

model = None


def infer(args, test_data):
    global model
    prompts = [f"User: {example['question']}\n\nAssistant:" for example in test_data]
    if model is None:
        model = LLM(**vllm_engine_kwargs(args))
    stop_words = ["<｜end▁of▁sentence｜>"]
    outputs = model.generate(prompts, SamplingParams(temperature=args.temperature, top_p=1.0, top_k=64, max_tokens=1024, n=1, stop=stop_words))
    outputs = sorted(outputs, key=lambda x: int(x.request_id))  # sort outputs by request_id
    return [output.outputs[0].text for output in outputs]


def main(args):
    test_data = [{"question": "Janet has 3 apples and buys 2 more. How many?"}]
    print(infer(args, test_data))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", type=str, default="deepseek-ai/deepseek-math-7b-rl")
    parser.add_argument("--tokenizer_name_or_path", type=str, default=None)
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--n_repeat_sampling", type=int, default=4)
    parser.add_argument("--gpus", type=str, default="0")
    args, unparsed_args = parser.parse_known_args()
    if args.gpus is not None:
        os.environ["CUDA_VISIBLE_DEVICES"] = args.gpus
    if args.n_repeat_sampling > 1:
        assert args.temperature > 0
    main(args)
