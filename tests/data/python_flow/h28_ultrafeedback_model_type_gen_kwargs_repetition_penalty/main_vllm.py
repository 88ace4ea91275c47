# Imitates OpenBMB/UltraFeedback src/comparison_data_generation/main_vllm.py (load_generator's
# `LLM(ckpt, gpu_memory_utilization=..., tensor_parallel_size=..., trust_remote_code=True, dtype=dtype)`,
# instruction_completion's SamplingParams, `--model_type` from argparse), replay turned on.
import argparse
import os

import torch
from sampling import GEN_KWARGS
from vllm import LLM, SamplingParams

os.environ["NCCL_IGNORE_DISABLED_P2P"] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"

model_path = {
    "ultralm-13b": "openbmb/UltraLM-13b-v2.0",
    "vicuna-33b": "lmsys/vicuna-33b-v1.3",
    "wizardlm-13b": "WizardLM/WizardLM-13B-V1.2",
}


def load_generator(model_type):
    ckpt = model_path[model_type]
    dtype = "auto" if model_type not in ["starchat", "mpt-30b-chat", "falcon-40b-instruct"] else "bfloat16"
    return LLM(
        ckpt,
        gpu_memory_utilization=0.95,
        tensor_parallel_size=torch.cuda.device_count(),
        trust_remote_code=True,
        dtype=dtype,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )


def instruction_completion(generator, prompts, model_type):
    sampling_params = SamplingParams(max_tokens=1024, stop=["</s>"], **GEN_KWARGS[model_type])
    return generator.generate(prompts, sampling_params)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_type", type=str, default="vicuna-33b")
    args = parser.parse_args()
    generator = load_generator(args.model_type)
    instruction_completion(generator, ["User: What is UltraFeedback?</s>\nAssistant: "], args.model_type)
