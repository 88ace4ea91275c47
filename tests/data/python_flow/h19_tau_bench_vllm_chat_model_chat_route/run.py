# Imitates sierra-research/tau-bench tau_bench/model_utils/model/general_model.py (default_model: the vLLM platform's chat model)
from tau_bench.model_utils.model.vllm_chat import VLLMChatModel


def default_model() -> VLLMChatModel:
    return VLLMChatModel(
        model="Qwen/Qwen2-7B-Instruct",
        base_url="http://localhost:8000/v1",
        api_key="sk-no-api-key-required",
        temperature=0.0,
    )


if __name__ == "__main__":
    model = default_model()
    print(model.generate_message([{"role": "user", "content": "Book a flight from SFO to JFK."}]))
