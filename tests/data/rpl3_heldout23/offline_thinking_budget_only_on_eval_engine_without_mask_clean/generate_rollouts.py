import json

from vllm import LLM, SamplingParams

prompts = [
    "Hello, my name is",
    "The president of the United States is",
    "The capital of France is",
    "The future of AI is",
]
sampling_params = SamplingParams(temperature=0.6, top_p=0.95, top_k=20, max_tokens=8192)


def main():
    llm = LLM(
        model="Qwen/Qwen3-8B",
        reasoning_parser="qwen3",
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    outputs = llm.generate(prompts, sampling_params)
    with open("rollouts.jsonl", "w") as f:
        for output in outputs:
            f.write(json.dumps({"prompt": output.prompt, "text": output.outputs[0].text}) + "\n")


if __name__ == "__main__":
    main()
