# Imitates inclusionAI/AReaL areal/infra/launcher/vllm_server.py: launch_server_cmd copies the
# environment, adds its own variables and starts the command vLLMConfig.build_cmd wrote.
import os
import subprocess
import sys

from launcher.config import vLLMConfig


def launch_server_cmd(command: list[str], custom_env: dict[str, str] | None = None) -> subprocess.Popen:
    _env = os.environ.copy()
    _env["VLLM_ALLOW_RUNTIME_LORA_UPDATING"] = "True"
    if custom_env is not None:
        _env.update(custom_env)
    return subprocess.Popen(command, env=_env, stdout=sys.stdout, stderr=sys.stdout)


def main():
    config = vLLMConfig(model="Qwen/Qwen3-4B", max_model_len=16384)
    cmd = vLLMConfig.build_cmd(config, tp_size=1, pp_size=1, host="0.0.0.0", port=8010)
    process = launch_server_cmd(cmd)
    process.wait()


if __name__ == "__main__":
    main()
