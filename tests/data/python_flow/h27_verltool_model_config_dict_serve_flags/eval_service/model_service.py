# Imitates TIGER-AI-Lab/verl-tool eval_service/model_service.py ModelService.load_model: every field of
# the ModelConfig but a few becomes `--field-name [value]` of a `vllm serve` per model.
import os
import random
import subprocess

from config import ModelConfig


class ModelService:
    def __init__(self, model_config: ModelConfig):
        self.model_config = model_config

    def load_model(self):
        vllm_args = []
        for k, v in self.model_config.__dict__.items():
            if k not in ["model", "api_key", "num_models", "host", "port"]:
                vllm_args.append(f"--{k.replace('_', '-')}")
                if not isinstance(v, bool):
                    vllm_args.append(str(v))
        host = "0.0.0.0"
        ports = random.sample(range(8000, 9000), self.model_config.num_models)
        self.vllm_processes = []
        for i in range(self.model_config.num_models):
            cmd = [
                "vllm", "serve", self.model_config.model, "--api-key", "token-abc123",
                "--host", host, "--port", str(ports[i]),
                "--disable-uvicorn-access-log", "--disable-log-stats", "--disable-log-requests",
            ] + vllm_args
            env = os.environ.copy()
            env["VLLM_LOGGING_LEVEL"] = "ERROR"
            self.vllm_processes.append(subprocess.Popen(cmd, env=env))


if __name__ == "__main__":
    ModelService(ModelConfig(model="Qwen/Qwen2.5-7B-Instruct")).load_model()
