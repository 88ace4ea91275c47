# Imitates NVIDIA/NeMo-Skills nemo_skills/pipeline/start_server.py (server_args passed through as one string, run locally)
import argparse
import subprocess

from nemo_skills.pipeline.server import get_server_command

REPLAY_SERVER_ARGS = "--return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="Qwen/Qwen2.5-Math-1.5B-Instruct")
    parser.add_argument("--server_gpus", type=int, default=1)
    parser.add_argument("--server_port", type=int, default=5000)
    args = parser.parse_args()
    cmd = get_server_command(
        server_type="vllm",
        num_gpus=args.server_gpus,
        model_path=args.model,
        server_port=args.server_port,
        server_args=f"{REPLAY_SERVER_ARGS} --max-model-len 8192",
    )
    proc = subprocess.Popen(cmd, shell=True)
    proc.wait()


if __name__ == "__main__":
    main()
