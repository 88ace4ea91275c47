# Imitates ScalingIntelligence/KernelBench scripts/generate_samples.py (the inference server from the presets,
# one completion per problem prompt).
from utils import create_inference_server_from_presets

PROMPT = "Write an optimized CUDA kernel for the following PyTorch model:\n"


def main():
    inference_server = create_inference_server_from_presets(
        server_type="local",
        model_name=None,
        greedy_sample=False,
        verbose=False,
        time_generation=True,
    )
    for problem in ["1_Square_matrix_multiplication_.py", "19_ReLU.py"]:
        samples = inference_server(PROMPT + problem)
        print(problem, len(samples))


if __name__ == "__main__":
    main()
