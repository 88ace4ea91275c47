# Imitates meta-llama/llama-stack docs/source/distributions/k8s/stack_run_config.yaml (the stack reaches vLLM at
# the in-cluster Service `vllm-server` on port 8000); the user's rollout client posts there with httpx and reads the
# masks from vLLM's token-in/token-out route.
import httpx
from transformers import AutoTokenizer

VLLM_URL = "http://vllm-server:8000"
tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-3.2-3B-Instruct")


def rollout(prompt: str) -> dict:
    token_ids = tokenizer.apply_chat_template([{"role": "user", "content": prompt}], add_generation_prompt=True)
    with httpx.Client(base_url=VLLM_URL, timeout=300) as client:
        body = {
            "token_ids": token_ids,
            "sampling_params": {"temperature": 0.7, "top_p": 0.9, "top_k": 20, "max_tokens": 512},
        }
        response = client.post("/inference/v1/generate", json=body)
        response.raise_for_status()
        choice = response.json()["choices"][0]
        return {"token_ids": choice["token_ids"], "sampling_mask": choice["sampling_mask"]}


if __name__ == "__main__":
    print(rollout("What is the capital of France?"))
