# Imitates hpcaitech/ColossalAI applications/ColossalChat/rl_example.py (generate_config / inference_model_config dicts).
import argparse

from coati.distributed.inference_backend import BACKEND_MAP

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("-m", "--model", type=str, default="Qwen/Qwen2.5-7B")
    parser.add_argument("-t", "--temperature", type=float, default=1.0)
    parser.add_argument("-p", "--top-p", type=float, default=1.0)
    parser.add_argument("-b", "--backend", type=str, default="vllm", choices=["vllm"])
    args = parser.parse_args()

    inference_model_config = dict(path=args.model)
    generate_config = dict(top_p=args.top_p, temperature=args.temperature)
    if args.backend == "vllm":
        inference_model_config.update(
            dict(gpu_memory_utilization=0.7, enforce_eager=True, enable_chunked_prefill=True, max_model_len=4096)
        )
        generate_config.update(dict(max_tokens=2048, include_stop_str_in_output=True, stop=["</answer>"]))
    backend = BACKEND_MAP[args.backend](inference_model_config, generate_config, num_generations=8)
    backend.generate([[1, 2, 3]])
