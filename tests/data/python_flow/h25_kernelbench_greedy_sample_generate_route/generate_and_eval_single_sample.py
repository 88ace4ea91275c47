# Imitates ScalingIntelligence/KernelBench scripts/generate_and_eval_single_sample.py (one greedy sample for
# one problem from the "local" server preset).
from dataclasses import dataclass

from utils import create_inference_server_from_presets


@dataclass
class EvalConfig:
    server_type: str = "local"
    model_name: str = "default"
    max_tokens: int = 4096
    verbose: bool = False
    log_prompt: bool = False


def main(config: EvalConfig):
    inference_server = create_inference_server_from_presets(
        server_type=config.server_type,
        model_name=config.model_name,
        greedy_sample=True,
        max_tokens=config.max_tokens,
        verbose=config.verbose,
        time_generation=True,
    )
    custom_kernel = inference_server("Write an optimized CUDA kernel for 19_ReLU.py")
    print(custom_kernel[0])


if __name__ == "__main__":
    main(EvalConfig())
