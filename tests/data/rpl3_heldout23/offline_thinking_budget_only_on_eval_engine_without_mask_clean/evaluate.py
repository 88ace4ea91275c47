from vllm import LLM, SamplingParams

prompts = [
    "What is 17 * 23?",
    "How many r's are in strawberry?",
]
sampling_params = SamplingParams(temperature=0.6, top_p=0.95, top_k=20, max_tokens=4096, thinking_token_budget=1024)


def main():
    llm = LLM(model="Qwen/Qwen3-8B", reasoning_parser="qwen3")
    outputs = llm.generate(prompts, sampling_params)
    for output in outputs:
        print(f"Prompt: {output.prompt!r}, Generated text: {output.outputs[0].text!r}")


if __name__ == "__main__":
    main()
