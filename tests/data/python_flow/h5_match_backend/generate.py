# Imitates huggingface/open-r1/src/open_r1/generate.py (its engine setup per run mode, written with a match statement as Python 3.10+ code does)
import argparse

from vllm import LLM, SamplingParams


def engine_kwargs(mode: str, model: str) -> dict:
    match mode:
        case "replay":
            return {"model": model, "return_sampling_mask": True, "max_logprobs": 20}  # expect: RPL003
        case "eval" | "debug":
            return {"model": model, "enforce_eager": True}
        case _:
            raise ValueError(f"unknown mode {mode!r}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="deepseek-ai/DeepSeek-R1-Distill-Qwen-7B")
    parser.add_argument("--mode", choices=["replay", "eval", "debug"], default="replay")
    args = parser.parse_args()
    llm = LLM(**engine_kwargs(args.mode, args.model))
    params = SamplingParams(temperature=0.6, top_p=0.95, top_k=20, max_tokens=4096)
    for out in llm.generate(["Find all real x with x^2 = 2x."], params):
        print(out.outputs[0].text)


if __name__ == "__main__":
    main()
