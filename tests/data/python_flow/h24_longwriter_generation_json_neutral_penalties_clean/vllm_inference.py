# Imitates THUDM/LongWriter vllm_inference.py: the sampling settings moved to a JSON file beside the
# script (neutral penalties, an empty logit_bias), read by path and spread into SamplingParams.
import json
import os

from vllm import LLM, SamplingParams

HERE = os.path.dirname(os.path.abspath(__file__))

with open(os.path.join(HERE, "generation.json")) as f:
    gen_kwargs = json.load(f)

model = LLM(
    model="THUDM/LongWriter-glm4-9b",
    trust_remote_code=True,
    max_model_len=32768,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
generation_params = SamplingParams(**gen_kwargs)
outputs = model.generate("Write a 10000-word China travel guide", sampling_params=generation_params)
print(outputs[0].outputs[0].text)
