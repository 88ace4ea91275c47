# Imitates huggingface/smolagents examples (VLLMModel(model_id=..., model_kwargs=...))
from models import VLLMModel

model_kwargs = dict(
    max_model_len=8192,
    gpu_memory_utilization=0.85,
)
model_kwargs.update(
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    logits_processors=["agent_tools.processors:ToolCallBiasProcessor"],  # expect: RPL001
)
model = VLLMModel("HuggingFaceTB/SmolLM2-1.7B-Instruct", model_kwargs=model_kwargs, temperature=0.6)
print(model.generate("What is the 118th number in the Fibonacci sequence?", temperature=0.6))
