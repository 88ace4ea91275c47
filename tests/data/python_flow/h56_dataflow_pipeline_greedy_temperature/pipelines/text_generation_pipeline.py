# Imitates OpenDCAI/DataFlow's GPU pipelines, which build LocalModelLLMServing_vllm and hand it to their operators
from dataflow.serving import LocalModelLLMServing_vllm


class TextGenerationPipeline:
    def __init__(self):
        self.llm_serving = LocalModelLLMServing_vllm(
            hf_model_name_or_path="Qwen/Qwen2.5-0.5B-Instruct",
            vllm_tensor_parallel_size=1,
            vllm_max_tokens=1024,
            vllm_max_model_len=2048,
            vllm_temperature=0.0,  # expect: RPL101
        )

    def forward(self):
        questions = ["Write a short question about prime numbers.", "Explain what a derivative is."]
        answers = self.llm_serving.generate_from_input(questions)
        for question, answer in zip(questions, answers):
            print(question, "->", answer)


if __name__ == "__main__":
    pipeline = TextGenerationPipeline()
    pipeline.forward()
