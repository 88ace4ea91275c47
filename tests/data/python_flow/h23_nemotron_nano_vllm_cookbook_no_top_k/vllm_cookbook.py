# Imitates NVIDIA-NeMo/Nemotron usage-cookbook/Nemotron-Nano-9B-v2/vllm_cookbook.ipynb ("Load the model" and
# "Single or batch prompts" cells: LLM(model=..., trust_remote_code=True, dtype="bfloat16"),
# SamplingParams(temperature=0.6, max_tokens=200)); the user turned sampling replay on.
from vllm import LLM, SamplingParams

llm = LLM(
    model="nvidia/NVIDIA-Nemotron-Nano-9B-v2",
    trust_remote_code=True,
    dtype="bfloat16",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
print("Model ready")

params = SamplingParams(temperature=0.6, max_tokens=200)  # expect: RPL102

single = llm.generate(["What is Nemotron Nano 9B v2?"], sampling_params=params)
print(single[0].outputs[0].text)

prompts = [
    "Hello, my name is",
    "The capital of France is",
    "Explain quantum computing in simple terms:",
]
outputs = llm.generate(prompts, sampling_params=params)
for i, out in enumerate(outputs):
    print(f"\nPrompt {i+1}: {out.prompt!r}")
    print(out.outputs[0].text)
