# Imitates vllm-project/vllm examples/offline_inference/structured_outputs.py, with groups of 8
# samples per prompt as GRPO rollouts ask for.
from vllm import LLM, SamplingParams
from vllm.sampling_params import StructuredOutputsParams

SCHEMA = {"type": "object", "properties": {"answer": {"type": "integer"}}, "required": ["answer"]}

llm = LLM(model="Qwen/Qwen2.5-3B-Instruct", return_sampling_mask=True, logprobs_mode="processed_logprobs")
params = SamplingParams(
    n=8,
    temperature=1.0,
    top_k=128,
    max_tokens=128,
    structured_outputs=StructuredOutputsParams(json=SCHEMA),
)
outputs = llm.generate(["What is 6 * 7? Answer in JSON."], params)
