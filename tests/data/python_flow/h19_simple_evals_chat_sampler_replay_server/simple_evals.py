# Imitates openai/simple-evals simple_evals.py (main: a samplers dict, --model/--list-models), with a local replay vLLM server
import argparse
import shlex
import subprocess
import time

import requests

from sampler.chat_completion_sampler import ChatCompletionSampler

MODEL = "Qwen/Qwen2.5-7B-Instruct"
PORT = 8000


def launch_replay_server() -> subprocess.Popen:
    cmd = f"vllm serve {MODEL} --port {PORT} --max-model-len 16384"
    cmd += " --return-sampling-mask --logprobs-mode processed_logprobs"
    cmd += " --enable-scale-out"
    proc = subprocess.Popen(shlex.split(cmd))
    while True:
        try:
            if requests.get(f"http://localhost:{PORT}/health").status_code == 200:
                return proc
        except requests.ConnectionError:
            time.sleep(5)


def main():
    parser = argparse.ArgumentParser(description="Run sampling and evaluations using different samplers and evaluations.")
    parser.add_argument("--list-models", action="store_true", help="List available models")
    parser.add_argument("--model", type=str, help="Select a model by name")
    parser.add_argument("--examples", type=int, help="Number of examples to use (overrides default)")
    args = parser.parse_args()

    models = {
        "qwen2.5-7b-replay": ChatCompletionSampler(
            model=MODEL,
            base_url=f"http://localhost:{PORT}/v1",
            temperature=0.7,
        ),
    }
    if args.list_models:
        for model_name in models:
            print(f" - {model_name}")
        return

    server = launch_replay_server()
    sampler = models[args.model or "qwen2.5-7b-replay"]
    print(sampler([{"role": "user", "content": "What is 17 * 23?"}]))
    server.terminate()


if __name__ == "__main__":
    main()
