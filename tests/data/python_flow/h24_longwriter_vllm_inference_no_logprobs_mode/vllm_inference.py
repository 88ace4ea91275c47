# Imitates THUDM/LongWriter vllm_inference.py: the engine's keywords kept in a dict beside the
# script's constants and spread into LLM; the user added the mask but no logprobs_mode.
from vllm import LLM, SamplingParams

MODEL_PATH = "THUDM/LongWriter-llama3.1-8b"
ENGINE_KWARGS = dict(
    dtype="auto",
    trust_remote_code=True,
    tensor_parallel_size=1,
    max_model_len=32768,
    gpu_memory_utilization=1,
)
ENGINE_KWARGS["return_sampling_mask"] = True  # expect: RPL003


def build_model():
    return LLM(model=MODEL_PATH, **ENGINE_KWARGS)


if __name__ == "__main__":
    model = build_model()
    generation_params = SamplingParams(temperature=0.5, top_p=0.8, top_k=50, max_tokens=32768, repetition_penalty=1)
    prompt = "[INST]Write a 10000-word China travel guide[/INST]"
    outputs = model.generate(prompt, sampling_params=generation_params)
    print(outputs[0].outputs[0].text)
