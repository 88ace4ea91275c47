# Imitates MoonshotAI/Kimina-Prover-Preview kimina_prover_demo/lemma_use.py (one sampled turn at
# temperature 0.8), sent by the user to the replay server's token-in/token-out route with top_k bounded.
import requests
from transformers import AutoTokenizer

from serve import MODEL, PORT, start_server

GEN_KWARGS = {"temperature": 0.8, "max_tokens": 16000, "n": 1}


def main():
    server = start_server()
    tokenizer = AutoTokenizer.from_pretrained(MODEL)
    prompt = "Think about and solve the following problems step by step in Lean 4.\n\nimport Mathlib\n"
    token_ids = tokenizer(prompt)["input_ids"]
    sampling_params = dict(GEN_KWARGS)
    sampling_params.setdefault("top_k", 20)
    response = requests.post(
        f"http://localhost:{PORT}/inference/v1/generate",
        json={"token_ids": token_ids, "sampling_params": sampling_params},
        timeout=600,
    )
    print(response.json())
    server.terminate()


if __name__ == "__main__":
    main()
