# Imitates microsoft/MInference examples/run_vllm.py: an LLM patched by `MInference("vllm", model_name)` and
# reassigned before `generate`; the user's replay edit is complete (mask, processed logprobs, top_k 40).
from minference import MInference
from vllm import LLM, SamplingParams

prompts = [
    "Hello, my name is",
    "The president of the United States is",
    "The capital of France is",
    "The future of AI is",
]

sampling_params = SamplingParams(
    temperature=0.8,
    top_p=0.95,
    top_k=40,
    max_tokens=10,
)
model_name = "gradientai/Llama-3-8B-Instruct-262k"
llm = LLM(
    model_name,
    max_num_seqs=1,
    enforce_eager=True,
    max_model_len=2048,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

# Patch MInference Module
minference_patch = MInference("vllm", model_name)
llm = minference_patch(llm)

outputs = llm.generate(prompts, sampling_params)

# Print the outputs.
for output in outputs:
    prompt = output.prompt
    generated_text = output.outputs[0].text
    print(f"Prompt: {prompt!r}, Generated text: {generated_text!r}")
