# Imitates a demo/eval server around one cached engine (huggingface/open-r1 style scripts: `functools.cache` on the builder)
import functools

from vllm import LLM, SamplingParams

ENGINE = {
    "model": "meta-llama/Llama-3.2-3B-Instruct",
    "return_sampling_mask": True,  # expect: RPL003
    "max_model_len": 4096,
}


@functools.cache
def get_llm() -> LLM:
    return LLM(**ENGINE)


def answer(question: str) -> str:
    params = SamplingParams(temperature=0.7, top_k=40, max_tokens=256)
    return get_llm().chat([{"role": "user", "content": question}], params)[0].outputs[0].text


if __name__ == "__main__":
    print(answer("Why is the sky blue?"))
