# Imitates ScalingIntelligence/large_language_monkeys llmonk/generate/gsm8k.py (pydra config, requests to the local server).
import pydra
import requests

from llmonk.utils import vllm_manager


class GenerateScriptConfig(pydra.Config):
    def __init__(self):
        super().__init__()
        self.model = "meta-llama/Meta-Llama-3-8B-Instruct"
        self.vllm_port = 8000
        self.num_gpus = 1
        self.num_samples = 100
        self.temperature = 0.6
        self.top_k = 20
        self.max_tokens = 512


def run_inference(config, prompt):
    url = f"http://localhost:{config.vllm_port}/v1/completions"
    body = {
        "model": config.model,
        "prompt": prompt,
        "max_tokens": config.max_tokens,
        "temperature": config.temperature,
        "top_k": config.top_k,
        "n": config.num_samples,
        "stop": ["Question:"],
    }
    response = requests.post(url, json=body)  # expect: RPL301
    return [choice["text"] for choice in response.json()["choices"]]


@pydra.main(GenerateScriptConfig)
def main(config):
    with vllm_manager(config):
        run_inference(config, "Question: 1 + 1?\nAnswer:")


if __name__ == "__main__":
    main()
