# Imitates Gen-Verse/ReasonFlux ReasonFlux_F1/README.md (Inference): LLM(model_id,
# tensor_parallel_size=8), SamplingParams with max_tokens only, a DeepSeek-style prompt. The user
# turned replay on.
from vllm import LLM, SamplingParams

model_id = "Gen-Verse/ReasonFlux-F1"

model = LLM(
    model_id,
    tensor_parallel_size=8,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

sampling_params = SamplingParams(
    max_tokens=32768,
)
sampling_params.top_k = 20
sampling_params.temperature = 0.6

question = "Let x, y and z be positive real numbers satisfying ... Find m+n."
ds_prompt = "<｜User｜>\n" + question + "<｜Assistant｜><think>\n"
output = model.generate(ds_prompt, sampling_params=sampling_params)
print(output[0].outputs[0].text)
