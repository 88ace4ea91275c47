# Imitates allenai/reward-bench scripts/run_bon.py (best-of-n sampling scored by a judge); the engine keywords kept in a JSON file next to the script
import json
import os

from vllm import LLM, SamplingParams

HERE = os.path.dirname(os.path.abspath(__file__))


def load_engine_kwargs(name: str = "vllm_judge.json") -> dict:
    with open(os.path.join(HERE, "configs", name)) as f:
        return json.load(f)


def main():
    engine_kwargs = load_engine_kwargs()
    engine_kwargs |= {"seed": 42}
    llm = LLM(**engine_kwargs)
    sampling_params = SamplingParams(n=16, temperature=0.8, top_k=50, top_p=0.95, max_tokens=1024)
    outputs = llm.generate(["Write a limerick about reward models."], sampling_params)
    for completion in outputs[0].outputs:
        print(completion.text)


if __name__ == "__main__":
    main()
