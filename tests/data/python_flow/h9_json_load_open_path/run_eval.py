# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py (engine kwargs read from a JSON file next to the script)
import json
import os

from vllm import LLM, SamplingParams

from processors import ForceAnswerFormat

HERE = os.path.dirname(os.path.abspath(__file__))

engine_kwargs = json.load(open(os.path.join(HERE, "configs", "engine.json")))

llm = LLM(**engine_kwargs, logits_processors=[ForceAnswerFormat])  # expect: RPL001

params = SamplingParams(temperature=0.8, top_k=20, max_tokens=1024)
for output in llm.generate(["What is 12 * 12? Put the answer in \\boxed{}."], params):
    print(output.outputs[0].text)
