# Imitates HazyResearch/intelligence-per-watt: a profiling run of the offline "vllm" client
# (src/ipw/clients/vllm.py) as the `ipw profile` runner drives it, written as a script.
from ipw.clients import vllm as _vllm_client  # noqa: F401  (registers "vllm")
from ipw.core.registry import ClientRegistry

MODEL = "Qwen/Qwen3-0.6B"
PROMPTS = [
    "What is the capital of France?",
    "Explain the difference between a list and a tuple in Python.",
]


def main() -> None:
    client = ClientRegistry.create("vllm")
    client.prepare(MODEL)
    for prompt in PROMPTS:
        answer = client.stream_chat_completion(
            MODEL,
            prompt,
            max_tokens=512,
        )
        print(answer)


if __name__ == "__main__":
    main()
