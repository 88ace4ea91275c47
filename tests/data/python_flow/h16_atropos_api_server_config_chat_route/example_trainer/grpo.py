# Imitates NousResearch/atropos example_trainer/grpo.py (the trainer starts vLLM's OpenAI server with subprocess.Popen).
import subprocess

from pydantic import BaseModel, Field


class TrainingConfig(BaseModel):
    model_name: str = Field("Qwen/Qwen2.5-1.5B-Instruct", description="Name of the base model to train")
    vllm_port: int = Field(9001, description="Port for the vLLM server")
    vllm_restart_interval: int = Field(3, description="Restart vLLM every N training steps")


def start_vllm(config: TrainingConfig, model_path: str):
    vllm_command = [
        "python",
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        model_path,
        "--port",
        str(config.vllm_port),
        "--dtype",
        "auto",
        "--gpu-memory-utilization",
        "0.45",
        "--served-model-name",
        config.model_name,
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
    ]
    return subprocess.Popen(vllm_command)


if __name__ == "__main__":
    config = TrainingConfig()
    start_vllm(config, config.model_name).wait()
