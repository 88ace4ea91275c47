# Imitates vllm-project/vllm examples/offline_inference/logits_processor/custom.py (a LogitsProcessor class passed by type)
from dummy_processor import DummyLogitsProcessor
from vllm import LLM, SamplingParams

prompts = ["Hello, my name is", "The president of the United States is"]
sampling_params = [
    SamplingParams(temperature=0.8, top_k=40, extra_args={"target_token": 67}),
    SamplingParams(temperature=0.8, top_k=40),
]


def main():
    llm = LLM(
        model="facebook/opt-125m",
        logits_processors=[DummyLogitsProcessor],  # expect: RPL001
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    outputs = llm.generate(prompts, sampling_params)
    for output in outputs:
        print(output.prompt, output.outputs[0].text)


if __name__ == "__main__":
    main()
