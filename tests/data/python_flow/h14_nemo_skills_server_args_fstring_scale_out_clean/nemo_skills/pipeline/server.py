# Imitates NVIDIA/NeMo-Skills nemo_skills/pipeline/utils/server.py (get_server_command: the vllm start command as an f-string)
def get_server_command(server_type: str, num_gpus: int, model_path: str, server_port: int, server_args: str = ""):
    if server_type == "vllm":
        server_start_cmd = (
            f"python3 -m vllm.entrypoints.openai.api_server "
            f"    --model {model_path} "
            f"    --tensor-parallel-size {num_gpus} "
            f"    --port {server_port} "
            f"    {server_args} "
        )
    else:
        raise ValueError(f"Server type '{server_type}' not supported.")
    server_cmd = f"nvidia-smi && {server_start_cmd} "
    return server_cmd
