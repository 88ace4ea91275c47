# Imitates llm-jp/llm-jp-eval-inference inference-modules/vllm/inference.py (VLLMGenerator), trimmed.
import argparse
import glob
import json
import logging

import torch
import transformers
import vllm
import vllm.sampling_params
import yaml

from schemas import InferenceConfig

logger = logging.getLogger(__name__)


def inference(cfg: InferenceConfig):
    generator = VLLMGenerator(cfg)
    generator.main()


class VLLMGenerator:
    def __init__(self, cfg: InferenceConfig):
        self.cfg = cfg
        self.model_name = cfg.model.model
        self.max_len = cfg.model.max_model_len
        self.tp = cfg.model.tensor_parallel_size

    def load_tokenizer(self):
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(**self.cfg.tokenizer.model_dump())
        if self.tokenizer.pad_token_id is None:
            self.tokenizer.pad_token_id = self.tokenizer.eos_token_id

    def load_model(self):
        self.model: vllm.LLM = vllm.LLM(**self.cfg.model.model_dump())
        self.model.set_tokenizer(self.tokenizer)

    def generate(self, max_output_len: int, target_data: dict, prompt_tokens: list) -> dict:
        sampling_params = vllm.sampling_params.SamplingParams(**self.cfg.generation_config.model_dump())
        if self.cfg.generation_config.max_tokens is None:
            sampling_params.max_tokens = max_output_len
        with torch.inference_mode():
            results = dict(target_data)
            outputs = self.model.generate(
                sampling_params=sampling_params, prompts=[{"prompt_token_ids": tokens} for tokens in prompt_tokens]
            )
            for i, output in enumerate(outputs):
                results["samples"][i]["generated"] = output.outputs[0].text
        return results

    def main(self):
        self.load_tokenizer()
        self.load_model()
        paths = self.cfg.prompt_json_path
        for path in glob.glob(paths) if isinstance(paths, str) else paths:
            with open(path, encoding="utf-8") as f:
                target_data = json.load(f)
            prompt_tokens = [self.tokenizer.encode(s["prompt"]) for s in target_data["samples"]]
            results = self.generate(target_data["output_length"], target_data, prompt_tokens)
            logger.info("generated %d samples for %s", len(results["samples"]), path)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["inference"])
    parser.add_argument("--config", required=True)
    args = parser.parse_args()
    with open(args.config, encoding="utf-8") as f:
        cfg = InferenceConfig.model_validate(yaml.safe_load(f))
    inference(cfg)
