# Imitates vllm-project/vllm/examples/offline_inference/basic_with_model_default_sampling.py (the
# request taken from the model's generation_config.json through llm.get_default_sampling_params())
from vllm import LLM

prompts = ["Hello, my name is", "The future of AI is"]


def main() -> None:
    llm = LLM(
        model="Qwen/Qwen3-8B",
        generation_config="auto",
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    params = llm.get_default_sampling_params()
    params.max_tokens = 1024
    for output in llm.generate(prompts, params):
        print(output.outputs[0].text)


if __name__ == "__main__":
    main()
