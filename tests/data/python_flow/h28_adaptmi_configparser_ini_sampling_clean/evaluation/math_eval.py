# Imitates princeton-pli/AdaptMI evaluation/math_eval.py (setup(): `LLM(model=..., dtype="bfloat16",
# trust_remote_code=True)`, main(): `llm.generate(prompts, SamplingParams(...))`), settings read with configparser
# from an INI file next to the script.
import configparser
from pathlib import Path

from vllm import LLM, SamplingParams

config = configparser.ConfigParser()
config.read(Path(__file__).with_name("eval.ini"))


def setup():
    llm = LLM(
        model=config.get("vllm", "model_name_or_path"),
        dtype="bfloat16",
        trust_remote_code=True,
        return_sampling_mask=config.getboolean("vllm", "return_sampling_mask"),
        logprobs_mode=config.get("vllm", "logprobs_mode"),
    )
    sampling = config["sampling"]
    params = SamplingParams(
        temperature=sampling.getfloat("temperature"),
        top_p=sampling.getfloat("top_p"),
        top_k=sampling.getint("top_k"),
        max_tokens=sampling.getint("max_tokens_per_call"),
        n=1,
    )
    return llm.generate(["Question: What is 7 * 6?\nAnswer:"], params)


if __name__ == "__main__":
    setup()
