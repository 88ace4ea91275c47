# Imitates ScalingIntelligence/KernelBench scripts/generate_samples.py (the inference server from the presets,
# one sample per problem, server_type "local").
from utils import create_inference_server_from_presets

PROMPT = "Write an optimized CUDA kernel for the following PyTorch model:\n"


def main():
    inference_server = create_inference_server_from_presets(
        server_type="local",
        model_name="default",
        greedy_sample=False,
        verbose=False,
        time_generation=False,
        num_completions=4,
    )
    for problem in ["1_Square_matrix_multiplication_.py", "19_ReLU.py"]:
        samples = inference_server(PROMPT + problem)
        print(problem, len(samples))


if __name__ == "__main__":
    main()
