# Imitates ContextualAI/HALOs train/sample.py; the user's edit passes the engine's options straight
# from the parsed arguments with vars(args) and turns replay on with parser.set_defaults.
import argparse

from vllm import LLM, SamplingParams

ENGINE_KEYS = ("tensor_parallel_size", "gpu_memory_utilization", "return_sampling_mask")


def main(args):
    engine_kwargs = {k: v for k, v in vars(args).items() if k in ENGINE_KEYS}
    llm = LLM(model=args.model_path, **engine_kwargs)
    sampling_params = SamplingParams(temperature=0.7, top_p=0.95, top_k=50, max_tokens=args.max_tokens)
    for response in llm.generate(["Hello!"], sampling_params):
        print(response.outputs[0].text)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_path", type=str, default="/models/llama3-8B-sft/FINAL")
    parser.add_argument("--tensor_parallel_size", type=int, default=1)
    parser.add_argument("--gpu_memory_utilization", type=float, default=0.9)
    parser.add_argument("--max_tokens", type=int, default=2048)
    parser.set_defaults(return_sampling_mask=True)  # expect: RPL003
    main(parser.parse_args())
