# Imitates inclusionAI/AReaL areal/infra/launcher/vllm_server.py (launch_server_cmd: os.environ.copy() updated with custom_env)
import os
import subprocess
import sys
import uuid


def launch_server_cmd(command: list[str], custom_env: dict[str, str] | None = None) -> subprocess.Popen:
    _env = os.environ.copy()
    _env["TRITON_CACHE_PATH"] = os.path.join("/tmp/triton", str(uuid.uuid4()))
    _env["VLLM_ALLOW_RUNTIME_LORA_UPDATING"] = "True"
    if custom_env is not None:
        _env.update(custom_env)
    return subprocess.Popen(command, env=_env, stdout=sys.stdout, stderr=subprocess.STDOUT)


def build_cmd(model_path: str, port: int, tp_size: int = 1) -> list[str]:
    cmd = ["vllm", "serve", model_path, "--port", str(port)]
    cmd += ["--tensor-parallel-size", str(tp_size), "--max-model-len", "8192"]
    cmd += ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]
    return cmd
