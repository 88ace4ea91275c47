# Imitates sierra-research/tau-bench tau_bench/model_utils/model/general_model.py (default_model: the vLLM platform's completion model)
from tau_bench.model_utils.model.vllm_completion import VLLMCompletionModel


def default_model() -> VLLMCompletionModel:
    return VLLMCompletionModel(model="Qwen/Qwen2-7B-Instruct", base_url="http://localhost:8000")


if __name__ == "__main__":
    model = default_model()
    choice = model.generate_from_prompt("User: Book a flight from SFO to JFK.\nAgent:")
    print(choice["text"], len(choice["sampling_mask"]))
