# Imitates huggingface/llm-swarm llm_swarm/__init__.py (LLMSwarmConfig, the slurm template filled in and sbatch'ed).
import os
import subprocess
import time
from dataclasses import dataclass
from time import sleep
from typing import List, Literal, Optional

SLURM_LOGS_FOLDER = "slurm/logs"


@dataclass
class LLMSwarmConfig:
    instances: int = 1
    """number of inference instances"""
    inference_engine: Literal["tgi", "vllm"] = "tgi"
    """inference engine to use"""
    slurm_template_path: str = "templates/tgi_h100.template.slurm"
    """path to slurm template"""
    model: str = "mistralai/Mistral-7B-Instruct-v0.1"
    """the name of the HF model or path to use"""
    revision: str = "main"
    """the revision of the model to use"""
    gpus: int = 8
    """number of gpus per instance"""
    load_balancer_template_path: str = "templates/nginx.template.conf"
    """path to load balancer template"""
    debug_endpoint: Optional[str] = None
    """endpoint to use for debugging (e.g. http://localhost:13120)"""


def run_command(command: str):
    print(f"running {command}")
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, shell=True)
    output, errors = process.communicate()
    assert process.returncode == 0, f"Command failed with error: {errors.decode('utf-8')}"
    return output.decode("utf-8").strip()


def get_endpoints(endpoint_path: str, instances: int = 1) -> List[str]:
    while True:
        try:
            endpoints = open(endpoint_path).read().splitlines()
            assert len(endpoints) == instances
            return endpoints
        except (OSError, AssertionError):
            sleep(1)


class LLMSwarm:
    def __init__(self, config: LLMSwarmConfig) -> None:
        self.config = config
        self.cleaned_up = False
        os.makedirs(SLURM_LOGS_FOLDER, exist_ok=True)

    def start(self):
        if self.config.debug_endpoint:
            self.endpoint = self.config.debug_endpoint
            return

        with open(self.config.slurm_template_path) as f:
            slurm_template = f.read()

        # customize slurm template
        self.filename = f"{self.config.inference_engine}_{int(time.time())}"
        slurm_path = os.path.join("slurm", f"{self.filename}_{self.config.inference_engine}.slurm")
        slurm_host_path = os.path.join("slurm", f"{self.filename}_host_{self.config.inference_engine}.txt")
        slurm_template = slurm_template.replace(r"{{slurm_hosts_path}}", slurm_host_path)
        slurm_template = slurm_template.replace(r"{{model}}", self.config.model)
        slurm_template = slurm_template.replace(r"{{revision}}", self.config.revision)
        slurm_template = slurm_template.replace(r"{{gpus}}", str(self.config.gpus))
        with open(slurm_path, "w") as f:
            f.write(slurm_template)

        # start inference instances
        self.job_ids = [run_command(f"sbatch --parsable {slurm_path}") for _ in range(self.config.instances)]
        print(f"Slurm Job ID: {self.job_ids}")
        self.endpoints = get_endpoints(slurm_host_path, self.config.instances)
        self.endpoint = self.endpoints[0]

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.cleanup()

    def cleanup(self):
        if self.config.debug_endpoint or self.cleaned_up:
            return
        for job_id in self.job_ids:
            run_command(f"scancel {job_id}")
        self.cleaned_up = True
