# Imitates THUDM/CodeGeeX4 README's vLLM section (SamplingParams(temperature=0.95, max_tokens=1024,
# stop_token_ids=...)); the engine comes from engine.py's partial (clean).
from vllm import SamplingParams

from engine import make_llm

llm = make_llm(model="THUDM/codegeex4-all-9b")
sampling_params = SamplingParams(temperature=0.95, top_k=40, max_tokens=1024, stop_token_ids=[151329, 151336, 151338])
outputs = llm.generate(prompts=["write a quick sort in python"], sampling_params=sampling_params)
print(outputs[0].outputs[0].text)
