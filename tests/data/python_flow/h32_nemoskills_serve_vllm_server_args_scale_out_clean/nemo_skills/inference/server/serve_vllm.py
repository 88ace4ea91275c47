# Imitates NVIDIA/NeMo-Skills nemo_skills/inference/server/serve_vllm.py (the server NeMo-Skills starts), trimmed;
# replay asked for through the extra server arguments the start script passes.
import argparse
import os
import subprocess

import ray


def main():
    parser = argparse.ArgumentParser(description="Serve vLLM model")
    parser.add_argument("--model", help="Path to the model or a model name to pull from HF")
    parser.add_argument("--num_gpus", type=int, required=True)
    parser.add_argument("--port", type=int, default=5000, help="Server port")
    args, unknown = parser.parse_known_args()

    extra_arguments = f'{" ".join(unknown)}'

    print(f"Deploying model {args.model}")
    print("Starting OpenAI Server")

    node_rank = int(os.environ["SLURM_PROCID"])
    head_node = os.environ["SLURM_NODELIST"].split(",")[0].replace("[", "")

    if node_rank == 0:
        ray.init(address="local")
    else:
        ray.init(address=f"{head_node}:6379")

    cmd = (
        f'python -m vllm.entrypoints.openai.api_server '
        f'    --model="{args.model}" '
        f'    --served-model-name="{args.model}"'
        f'    --trust-remote-code '
        f'    --host="0.0.0.0" '
        f'    --port={args.port} '
        f'    --tensor-parallel-size={args.num_gpus} '
        f'    --gpu-memory-utilization=0.9 '
        f'    --max-num-seqs=256 '
        f'    --max-model-len=2048 '
        f'    --enforce-eager '
        f'    --disable-log-requests '
        f'    --disable-log-stats '
        f'    {extra_arguments} | grep -v "200 OK"'
    )

    subprocess.run(cmd, shell=True, check=True)


if __name__ == "__main__":
    main()
