# Imitates ServiceNow/PipelineRL pipelinerl/launch.py (run_actor_llm: vllm_kwargs from the config appended to the command).
import os
import subprocess
import sys

from omegaconf import OmegaConf


def run_actor_llm(cfg, gpus, port):
    cmd = [
        sys.executable,
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        str(cfg.model_path),
        "--host",
        "0.0.0.0",
        "--port",
        str(port),
        "--seed",
        str(cfg.seed),
    ]
    kwargs = cfg.vllm_config.vllm_kwargs
    if kwargs:
        for k, v in kwargs.items():
            cmd.append(f"--{k}")
            if v not in [None, ""]:
                cmd.append(str(v))
    gpu_str = ",".join([str(gpu) for gpu in gpus])
    env = dict(os.environ)
    env["CUDA_VISIBLE_DEVICES"] = gpu_str
    return subprocess.Popen(cmd, env=env, stdout=sys.stdout, stderr=sys.stderr)


def main():
    cfg = OmegaConf.load(os.path.join(os.path.dirname(__file__), "..", "conf", "base.yaml"))
    proc = run_actor_llm(cfg, gpus=[0], port=8080)
    proc.wait()


if __name__ == "__main__":
    main()
