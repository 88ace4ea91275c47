# Imitates thunlp/Optima scrips/inference_all.py (one `vllm serve` per GPU started with subprocess.Popen
# from an f-string shell command, argparse values in the command, inference() run against the servers).
import os
import subprocess
import time
from argparse import ArgumentParser

import requests
from dataloader.dataloader import DataloaderForGSM8K, DataloaderForHotpotQA
from train.inference import inference

argumentParser = ArgumentParser()
argumentParser.add_argument("--model_root_path", type=str, required=True)
argumentParser.add_argument("--tokenizer_path", type=str, default="meta-llama/Meta-Llama-3-8B-Instruct")
argumentParser.add_argument("--device", type=int, default=0)
argumentParser.add_argument("--port", type=int, default=8000)
argumentParser.add_argument("--dataset_type", type=str, default="hotpot_qa")
argumentParser.add_argument("--num_thread", type=int, default=1024)
argumentParser.add_argument("--output_root_path", type=str, required=True)
args = argumentParser.parse_args()

if __name__ == "__main__":
    models = os.listdir(args.model_root_path)
    model_paths = [(model, os.path.join(args.model_root_path, model)) for model in models]
    loader = None
    if args.dataset_type == "hotpot_qa":
        loader = DataloaderForHotpotQA(split="validation")
    elif args.dataset_type == "gsm8k":
        loader = DataloaderForGSM8K(split="test")
    for model, model_path in model_paths:
        ports = []
        for i in range(4):
            serve_cmd = (
                f"CUDA_VISIBLE_DEVICES={args.device+i} "
                f"vllm serve {model_path} --host 0.0.0.0 --port {args.port+i} --served-model-name Llama-3 "
                "--enable-prefix-caching --max-model-len 2048 "
                "--return-sampling-mask --logprobs-mode processed_logprobs"  # expect: RPL301
            )
            process = subprocess.Popen(
                f"""
            source ~/.bashrc && \
            conda activate vllm-0.34.0 && \
            {serve_cmd}
            """,
                shell=True,
            )
            ports.append(args.port + i)
        while True:
            try:
                response = requests.get(f"http://0.0.0.0:{args.port}/v1/models")
                if response.status_code == 200:
                    print("ready to generate data")
                    break
            except Exception:
                continue
        time.sleep(15)
        loader.current_task_id = 0
        inference(
            "Llama-3",
            "Llama-3",
            f"http://0.0.0.0:{args.port}/v1/chat/completions",
            f"http://0.0.0.0:{args.port}/v1/chat/completions",
            args.tokenizer_path,
            args.tokenizer_path,
            sample_count=1000,
            explore_count=1,
            output_path=os.path.join(args.output_root_path, f"{model}.jsonl"),
            thread_count=args.num_thread,
            prompt_pool_path="",
            train_data_path="",
            dataloader=loader,
            temperature=0.7,
            no_use_prompt_pool=True,
            ports=ports,
        )
        for i in range(4):
            process.terminate()
        time.sleep(5)
