# Imitates vllm-project/llm-compressor tests/e2e/vLLM/run_vllm.py (engine keywords and prompts passed as JSON in
# sys.argv by the test, `LLM(**llm_kwargs)`, `SamplingParams(temperature=0.80, top_p=0.95)`), with a top_k added.
import json
import sys

from vllm import LLM, SamplingParams

llm_kwargs = json.loads(sys.argv[1])
prompts = json.loads(sys.argv[2])


def main():
    sampling_params = SamplingParams(temperature=0.80, top_p=0.95, top_k=40)
    llm = LLM(**llm_kwargs)
    outputs = llm.generate(prompts, sampling_params)
    for output in outputs:
        print(output.prompt, output.outputs[0].text)


if __name__ == "__main__":
    main()
