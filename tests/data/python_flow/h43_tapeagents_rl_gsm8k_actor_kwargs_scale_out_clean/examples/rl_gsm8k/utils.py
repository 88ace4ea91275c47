# Imitates ServiceNow/TapeAgents examples/rl_gsm8k/utils.py (VLLMServiceManager: `--{k} {v}` of its **kwargs joined
# into a shell command string started with subprocess.Popen(cmd, shell=True) per GPU group), trimmed.
import logging
import subprocess
import threading
import time
from pathlib import Path
from typing import List, Optional, TextIO, Union

import requests
import torch

logger = logging.getLogger(__name__)


def generate_cuda_device_strings(total_gpus: int, gpus_per_model: int) -> List[str]:
    cuda_device_strings = []
    if total_gpus % gpus_per_model != 0:
        raise ValueError(f"Requested {gpus_per_model} GPUs per model, but {total_gpus} GPUs are available")

    for start_gpu in range(0, total_gpus, gpus_per_model):
        end_gpu = start_gpu + gpus_per_model
        cuda_devices = ",".join(str(i) for i in range(start_gpu, end_gpu))
        cuda_device_strings.append(cuda_devices)
    return cuda_device_strings


class VLLMServiceManager:
    def __init__(
        self,
        exp_path: Path,
        service_name: str,
        model_name_or_path: Union[str, Path],
        port: int = 8080,
        verbose: bool = True,
        cuda_device: str = "0",
        host: str = "localhost",
        **kwargs,
    ):
        self.model_name_or_path = model_name_or_path
        self.service_name = service_name
        self.stdout_file_prefix = str(exp_path / f"{service_name}_stdout")
        self.stderr_file_prefix = str(exp_path / f"{service_name}_stderr")
        self.port = port
        self.ports = []
        self.processes = []
        pipeline_parallel_size = kwargs.get("--pipeline-parallel-size", 1)
        tensor_parallel_size = kwargs.get("--tensor-parallel-size", 1)
        self.gpus_per_model_instance = (pipeline_parallel_size) * (tensor_parallel_size)
        self.verbose = verbose
        self.cuda_device = cuda_device
        self.host = host
        self.kwargs = kwargs
        self.process: Optional[subprocess.Popen] = None
        self.open_files: list[TextIO] = []
        self.stats = {}

    def get_base_urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    def _wait_for_service(self, process: subprocess.Popen, url, headers=None, timeout=120) -> bool:
        start_time = time.time()
        while True:
            try:
                response = requests.get(url, headers=headers, timeout=1)
                if response.status_code == 200:
                    return True
            except requests.exceptions.RequestException:
                pass
            if time.time() - start_time > timeout:
                return False
            if process.poll() is not None:
                return False
            time.sleep(1.0)

    def _start_service(self) -> None:
        threads = []
        for i, device_number in enumerate(
            generate_cuda_device_strings(torch.cuda.device_count(), self.gpus_per_model_instance)
        ):
            port = self.port + i
            thread = threading.Thread(target=self._start_llm, args=(device_number, port))
            threads.append(thread)
            thread.start()
        for thread in threads:
            thread.join()

    def _start_llm(self, cuda_device, port):
        kwargs_str = " ".join([f"--{k} {v}" for k, v in self.kwargs.items()]) if self.kwargs else ""

        cmd = (
            f"OUTLINES_CACHE_DIR=/tmp/.outlines_{cuda_device}_{int(time.time())} "
            f"CUDA_VISIBLE_DEVICES={cuda_device} "
            f"python -m vllm.entrypoints.openai.api_server "
            f"--model {self.model_name_or_path} "
            f"--port {port} "
            f"--seed {cuda_device[0]} "
            "--dtype bfloat16 "
            f"{kwargs_str}"
        )

        if self.gpus_per_model_instance > 1:
            cmd = "VLLM_WORKER_MULTIPROC_METHOD=spawn " + cmd

        process_args = {
            "shell": True,
            "stdout": subprocess.DEVNULL,
            "stderr": subprocess.DEVNULL,
        }
        process = subprocess.Popen(cmd, **process_args)

        vllm_url = f"http://{self.host}:{port}/health"
        headers = {"User-Agent": "vLLM Client"}
        if self._wait_for_service(process, vllm_url, headers=headers, timeout=8000):
            logger.info(f"{self.service_name} {self.model_name_or_path} model loaded on port {port}")
        else:
            self._cleanup()
            raise Exception("Failed to start the service")
        self.ports.append(port)
        self.processes.append(process)

    def _cleanup(self) -> None:
        for process in self.processes:
            process.terminate()
        for f in self.open_files:
            f.close()

    def __enter__(self) -> "VLLMServiceManager":
        self._start_service()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb) -> None:
        self._cleanup()
