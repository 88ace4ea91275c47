import time

import httpx
from transformers import AutoTokenizer

from agent.sampling import rollout_sampling_params

tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen3-4B")
TASKS = ["Plan a 3-step proof that sqrt(2) is irrational."]


def wait_for_server(url: str) -> None:
    for _ in range(120):
        try:
            if httpx.get(f"{url}/health").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(5)


def main() -> None:
    wait_for_server("http://localhost:8000")
    for task in TASKS:
        ids = tokenizer.apply_chat_template([{"role": "user", "content": task}], add_generation_prompt=True, enable_thinking=True)
        body = {"token_ids": ids, "sampling_params": rollout_sampling_params(4096)}
        result = httpx.post("http://localhost:8000/inference/v1/generate", json=body, timeout=600).json()
        print(result["choices"][0]["token_ids"][:16])


if __name__ == "__main__":
    main()
