# Imitates ScalingIntelligence/KernelBench src/kernelbench/utils.py (query_server, SERVER_PRESETS,
# create_inference_server_from_presets); the user's edit sends the local server's requests to vLLM's
# token-in/token-out route so that the sampling masks come back.
import time

import requests
from transformers import AutoTokenizer

SERVER_PRESETS = {
    "local": {  # this is for running locally (SGLang, vLLM, Tokasaurus), mostly for Llama
        "temperature": 0.8,  # human eval pass@N temperature
        "server_port": 10210,
        "server_address": "localhost",
        "max_tokens": 8192,
    },
    "openai": {
        "model_name": "gpt-4o-2024-08-06",
        "temperature": 0.0,
        "max_tokens": 4096,
    },
}

TOKENIZER = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-Coder-7B-Instruct")


def query_server(
    prompt: str | list[dict],
    system_prompt: str = "You are a helpful assistant",
    temperature: float = 0.0,
    top_p: float = 1.0,  # nucleus sampling
    top_k: int = 50,
    max_tokens: int = 128,
    num_completions: int = 1,
    server_port: int = 30000,  # only for local server hosted on SGLang
    server_address: str = "localhost",
    server_type: str = "sglang",
    model_name: str = "default",
):
    if server_type == "local":
        url = f"http://{server_address}:{server_port}"
        if isinstance(prompt, str):
            prompt = [{"role": "system", "content": system_prompt}, {"role": "user", "content": prompt}]
        token_ids = TOKENIZER.apply_chat_template(prompt, tokenize=True, add_generation_prompt=True)
        payload = {
            "model": model_name,
            "token_ids": token_ids,
            "sampling_params": {
                "temperature": temperature,
                "top_p": top_p,
                "top_k": top_k,
                "max_tokens": max_tokens,
                "n": num_completions,
            },
        }
        response = requests.post(f"{url}/inference/v1/generate", json=payload, timeout=None)
        response.raise_for_status()
        return [TOKENIZER.decode(choice["token_ids"]) for choice in response.json()["choices"]]
    raise NotImplementedError(server_type)


def create_inference_server_from_presets(
    server_type: str = None,
    greedy_sample: bool = False,
    verbose: bool = False,
    time_generation: bool = False,
    model_name: str = None,
    **kwargs,
) -> callable:
    """
    Return a callable function that queries LLM with given settings
    """

    def _query_llm(prompt: str | list[dict]):
        server_args = SERVER_PRESETS[server_type].copy()

        if model_name is not None and model_name != "None":
            server_args["model_name"] = model_name

        if kwargs:
            filtered_kwargs = {k: v for k, v in kwargs.items() if v is not None and v != "None"}
            server_args.update(filtered_kwargs)

        if greedy_sample:
            server_args["temperature"] = 0.0  # expect: RPL101
            server_args["top_p"] = 1.0
            server_args["top_k"] = 1

        if verbose:
            print(f"Querying server {server_type} with model {server_args.get('model_name')} and args: {server_args}")

        if time_generation:
            start_time = time.time()
            response = query_server(prompt, server_type=server_type, **server_args)
            print(f"[Timing] Inference took {time.time() - start_time:.2f} seconds")
            return response
        return query_server(prompt, server_type=server_type, **server_args)

    return _query_llm
