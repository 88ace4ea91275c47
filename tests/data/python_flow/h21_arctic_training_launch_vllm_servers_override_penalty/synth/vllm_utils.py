# Imitates snowflakedb/ArcticTraining arctic_training/synth/vllm_utils.py (launch_vllm_servers: one `vllm serve`
# per tensor-parallel group, CUDA_VISIBLE_DEVICES set before each Popen); the user's edit asks for replay masks
# and pins a generation default. (Upstream's --swap_space and --use-v2-block-manager are gone from vLLM 0.34.0.)
import json
import os
import subprocess

REPLAY_ARGS = [
    "--return-sampling-mask",
    "--logprobs-mode",
    "processed_logprobs",
    "--enable-scale-out",
]
GENERATION_OVERRIDES = {"repetition_penalty": 1.05}  # expect: RPL302


def launch_vllm_servers(model_name, tensor_parallelism, gpu_ids=[0, 1, 2, 3, 4, 5, 6, 7], skip_launch=False):
    num_services = len(gpu_ids) // tensor_parallelism
    processes = []
    base_port = 8000
    if skip_launch:
        return processes
    for i in range(num_services):
        assigned_gpus = gpu_ids[i * tensor_parallelism : (i + 1) * tensor_parallelism]
        os.environ["CUDA_VISIBLE_DEVICES"] = ",".join(map(str, assigned_gpus))
        command = [
            "vllm",
            "serve",
            model_name,
            "--tensor-parallel-size", str(tensor_parallelism),
            "--port", str(base_port + i),
            "--enable-chunked-prefill",
            "--disable-log-requests",
        ]
        command += REPLAY_ARGS
        command += ["--override-generation-config", json.dumps(GENERATION_OVERRIDES)]
        process = subprocess.Popen(command)
        processes.append(process.pid)
    return processes
