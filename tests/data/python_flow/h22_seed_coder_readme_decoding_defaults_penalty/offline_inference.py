# Imitates ByteDance-Seed/Seed-Coder README.md "Offline Batched Inference" with vLLM, replay turned on.
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

from seed_coder_defaults import DEFAULT_DECODING

tokenizer = AutoTokenizer.from_pretrained("ByteDance-Seed/Seed-Coder-8B-Instruct")
sampling_params = SamplingParams(**DEFAULT_DECODING)
llm = LLM(
    model="ByteDance-Seed/Seed-Coder-8B-Instruct",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
prompt = "#write a quick sort algorithm."
outputs = llm.generate([prompt], sampling_params)
for output in outputs:
    print(f"Prompt: {output.prompt!r}\n\nGenerated content: {output.outputs[0].text!r}")
