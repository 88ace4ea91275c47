# Imitates shawnghu/small-rl vllm_mlp_adapter.py's usage docstring (create_engine, then mgr.generate per experiment).
from vllm import SamplingParams

from vllm_mlp_adapter import create_engine


def main():
    llm, mgr = create_engine(max_experiments=20, retain_neurons=32, forget_neurons=32)
    sampling_params = SamplingParams(temperature=0, top_k=50, max_tokens=50)  # expect: RPL101
    outputs = mgr.generate(["Once upon a time"], experiment_ids=[1], sampling_params=sampling_params)
    for out in outputs:
        print(out.outputs[0].text)


if __name__ == "__main__":
    main()
