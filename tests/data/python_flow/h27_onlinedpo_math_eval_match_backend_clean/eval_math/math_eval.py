# Imitates RLHFlow/Online-DPO-R1 eval_math/math_eval.py (`if args.use_vllm: llm = LLM(...)` else an HF
# model; SamplingParams(temperature=args.temperature, ...)); the user's edit chooses the backend with
# match/case on a YAML's name; the YAML picks the HF backend.
import os

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))


def load_vllm(cfg):
    from vllm import LLM

    return LLM(model=cfg["model_name_or_path"], trust_remote_code=True,
               return_sampling_mask=True, logprobs_mode="processed_logprobs")


def generate(cfg, prompts):
    match cfg["backend"]:
        case "vllm":
            from vllm import SamplingParams

            llm = load_vllm(cfg)
            params = SamplingParams(temperature=cfg["temperature"], top_p=cfg["top_p"], max_tokens=cfg["max_tokens_per_call"])
            return [o.outputs[0].text for o in llm.generate(prompts, params)]
        case "hf":
            from transformers import pipeline

            pipe = pipeline("text-generation", model=cfg["model_name_or_path"])
            return [pipe(p, max_new_tokens=cfg["max_tokens_per_call"], do_sample=False)[0]["generated_text"] for p in prompts]
        case _:
            raise ValueError(cfg["backend"])


if __name__ == "__main__":
    with open(os.path.join(HERE, "eval.yaml")) as f:
        cfg = yaml.safe_load(f)
    print(generate(cfg, ["Compute 2 + 3."]))
