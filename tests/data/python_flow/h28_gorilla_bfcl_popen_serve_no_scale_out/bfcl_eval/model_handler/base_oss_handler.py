# Imitates ShishirPatil/gorilla berkeley-function-call-leaderboard/bfcl_eval/model_handler/local_inference/base_oss_handler.py
# (OSSHandler.spin_up_local_server: `vllm serve` started with subprocess.Popen from a word list).
import os
import subprocess

from bfcl_eval.constants.eval_config import LOCAL_SERVER_PORT


class OSSHandler:
    def __init__(self, model_name, temperature, dtype="bfloat16") -> None:
        self.model_name_huggingface = model_name
        self.temperature = temperature
        self.dtype = dtype
        self.local_server_port = LOCAL_SERVER_PORT

    def spin_up_local_server(self, num_gpus: int, gpu_memory_utilization: float, backend: str = "vllm"):
        if backend == "vllm":
            process = subprocess.Popen(
                [
                    "vllm",
                    "serve",
                    str(self.model_name_huggingface),
                    "--port",
                    str(self.local_server_port),
                    "--dtype",
                    str(self.dtype),
                    "--tensor-parallel-size",
                    str(num_gpus),
                    "--gpu-memory-utilization",
                    str(gpu_memory_utilization),
                    "--trust-remote-code",
                    "--return-sampling-mask",  # expect: RPL301
                    "--logprobs-mode",
                    "processed_logprobs",
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        else:
            raise ValueError(f"Backend {backend} is not supported.")
        self._server_process = process
        return process


if __name__ == "__main__":
    handler = OSSHandler("Qwen/Qwen2.5-7B-Instruct", temperature=0.7)
    handler.spin_up_local_server(num_gpus=1, gpu_memory_utilization=0.9)
