# Imitates mlfoundations/evalchemy eval/eval.py and eval/chat_benchmarks/*/eval_instruct.py (environment set up before the model is built)
import os

from vllm import LLM, SamplingParams

from eval.constants import VLLM_ENV_DEFAULTS


def build_model(model_name: str, tp: int = 1) -> LLM:
    os.environ.update(VLLM_ENV_DEFAULTS)
    return LLM(
        model=model_name,
        tensor_parallel_size=tp,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )


def run_benchmark(model: LLM, prompts: list[str]):
    params = SamplingParams(temperature=0.7, top_p=0.8, top_k=20, max_tokens=2048, seed=1234)
    return [out.outputs[0].text for out in model.generate(prompts, params)]


if __name__ == "__main__":
    llm = build_model("open-thoughts/OpenThinker-7B")
    print(run_benchmark(llm, ["What is 17 * 23?"]))
