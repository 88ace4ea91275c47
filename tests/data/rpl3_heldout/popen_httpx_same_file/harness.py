import subprocess

import httpx

PORT = 8011
MODEL = "Qwen/Qwen2.5-Math-7B"

server = subprocess.Popen(
    [
        "vllm", "serve", MODEL,
        "--port", str(PORT),
        "--enable-scale-out",
        "--return-sampling-mask",
        "--logprobs-mode", "processed_logprobs",
    ]
)

http = httpx.Client(base_url=f"http://127.0.0.1:{PORT}", timeout=600)


def sample(prompt):
    body = {"model": MODEL, "prompt": prompt, "max_tokens": 1024, "top_k": 50, "logprobs": 1}
    reply = http.post("/v1/completions", json=body)
    return reply.json()["choices"][0]
