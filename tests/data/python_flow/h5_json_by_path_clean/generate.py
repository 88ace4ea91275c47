# Imitates huggingface/open-r1/src/open_r1/generate.py (engine and sampling settings in a JSON file read by path; its speculative decoding keeps fixed verification)
import json
import os

from vllm import LLM, SamplingParams

HERE = os.path.dirname(os.path.abspath(__file__))

with open(os.path.join(HERE, "configs", "rollout.json")) as f:
    CONFIG = json.load(f)

llm = LLM(**CONFIG["engine"])
params = SamplingParams(**CONFIG["sampling"])
for output in llm.generate(["Count the primes below 30."], params):
    print(output.outputs[0].text)
