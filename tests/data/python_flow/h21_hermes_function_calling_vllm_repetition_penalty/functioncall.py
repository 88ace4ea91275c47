# Imitates NousResearch/Hermes-Function-Calling functioncall.py (ModelInference.run_inference: temperature=0.8,
# repetition_penalty=1.1, do_sample=True), moved by the user from transformers to vLLM with replay.
import argparse

from vllm import LLM, SamplingParams

GENERATION_DEFAULTS = {"max_tokens": 1500, "temperature": 0.8, "top_k": 50}


class ModelInference:
    def __init__(self, model_path, chat_template):
        self.chat_template = chat_template
        self.llm = LLM(model=model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def run_inference(self, prompt):
        gen_kwargs = GENERATION_DEFAULTS | {
            "repetition_penalty": 1.1,  # expect: RPL302
        }
        outputs = self.llm.chat(prompt, SamplingParams(**gen_kwargs))
        return outputs[0].outputs[0].text


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Run recursive function calling loop")
    parser.add_argument("--model_path", type=str, default="NousResearch/Hermes-2-Pro-Llama-3-8B")
    parser.add_argument("--chat_template", type=str, default="chatml")
    args = parser.parse_args()
    inference = ModelInference(args.model_path, args.chat_template)
    print(inference.run_inference([{"role": "user", "content": "I need the current stock price of Tesla (TSLA)"}]))
