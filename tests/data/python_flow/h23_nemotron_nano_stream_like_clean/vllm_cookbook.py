# Imitates NVIDIA-NeMo/Nemotron usage-cookbook/Nemotron-Nano-9B-v2/vllm_cookbook.ipynb ("Streamed generation"
# cell: stream_like(prompt, llm, SamplingParams(temperature=0.7, max_tokens=80))); the user turned sampling
# replay on and bounded top_k.
from vllm import LLM, SamplingParams

llm = LLM(
    model="nvidia/NVIDIA-Nemotron-Nano-9B-v2",
    trust_remote_code=True,
    dtype="bfloat16",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)


def stream_like(prompt: str, llm: LLM, sampling_params: SamplingParams) -> None:
    outputs = llm.generate([prompt], sampling_params=sampling_params)
    text = outputs[0].outputs[0].text
    print("Response:", end=" ")
    for ch in text:
        print(ch, end="", flush=True)
    print()


stream_like("Write a haiku about GPUs.", llm, SamplingParams(temperature=0.7, top_k=50, max_tokens=80))
