# Imitates huggingface/lighteval src/lighteval/main_vllm.py (model config built in code, then greedy_until)
from evalkit.model_input import GenerationParameters
from evalkit.vllm_model import VLLMModel, VLLMModelConfig


def main() -> None:
    config = VLLMModelConfig(
        model_name="Qwen/Qwen2.5-7B-Instruct",
        max_model_length=8192,
        generation_parameters=GenerationParameters(temperature=1.0, top_p=0.95, top_k=20, max_new_tokens=2048),
    )
    model = VLLMModel(config)
    outputs = model._generate(["Solve: 12 * 17 = ?"], max_new_tokens=2048, num_samples=4)
    for out in outputs:
        print(out.outputs[0].text)


if __name__ == "__main__":
    main()
