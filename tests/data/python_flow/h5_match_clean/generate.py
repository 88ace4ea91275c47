# Imitates huggingface/open-r1/src/open_r1/generate.py (per-mode engine setup with a match statement: the mask and the processors are never on one path)
from vllm import LLM, SamplingParams


def engine_kwargs(mode: str, model: str) -> dict:
    kwargs = {"model": model, "max_model_len": 8192}
    match mode:
        case "replay":
            kwargs |= {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
        case "constrained":
            kwargs["logits_processors"] = ["openr1_plugins.processors:BanNonDigits"]
        case _:
            pass
    return kwargs


def run(mode: str = "replay") -> None:
    llm = LLM(**engine_kwargs(mode, "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B"))
    params = SamplingParams(temperature=0.6, top_p=0.95, top_k=20, max_tokens=2048)
    llm.generate(["What is 12 * 12?"], params)


if __name__ == "__main__":
    run()
    run("constrained")
