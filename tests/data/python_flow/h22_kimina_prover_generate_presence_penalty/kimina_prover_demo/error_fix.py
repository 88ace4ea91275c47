# Imitates MoonshotAI/Kimina-Prover-Preview kimina_prover_demo/error_fix.py (first turn sampled with
# temperature=0.8, presence_penalty=0.2), moved by the user to the token-in/token-out route that returns masks.
import requests
from transformers import AutoTokenizer

from serve import MODEL, PORT, start_server

SYSTEM = "You are an expert programmer and mathematician who helps formalizing mathematical problems in Lean 4."
MAX_TOKENS = 16000


def main():
    server = start_server()
    tokenizer = AutoTokenizer.from_pretrained(MODEL)
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Think about and solve ..."}]
    token_ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True)
    body = {
        "token_ids": token_ids,
        "sampling_params": {
            "temperature": 0.8,
            "top_k": 20,
            "presence_penalty": 0.2,  # expect: RPL302
            "max_tokens": MAX_TOKENS,
            "n": 1,
        },
    }
    response = requests.post(f"http://127.0.0.1:{PORT}/inference/v1/generate", json=body, timeout=600)
    print(response.json())
    server.terminate()


if __name__ == "__main__":
    main()
