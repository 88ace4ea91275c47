# Imitates THUDM/GLM-4 README.md / basic_demo (vllm serve of glm-4-9b-chat with its flags), launched from Python with a string-built command line
import subprocess

MODEL_PATH = "THUDM/glm-4-9b-chat-hf"
SERVER_ARGS = {
    "tensor_parallel_size": 1,
    "max_model_len": 8192,
    "gpu_memory_utilization": 0.9,
    "port": 8000,
    "logprobs_mode": "processed_logprobs",
}
REPLAY_FLAGS = "--return-sampling-mask"  # expect: RPL301


def build_command() -> str:
    flags = " ".join(f"--{key.replace('_', '-')} {value}" for key, value in SERVER_ARGS.items())
    return f"vllm serve {MODEL_PATH} {flags} {REPLAY_FLAGS} --trust-remote-code"


if __name__ == "__main__":
    subprocess.run(build_command(), shell=True, check=True)
