# Imitates InternLM/xtuner xtuner/v1/ray/rollout/vllm.py (vLLMWorker: server args from the RolloutConfig)
import os
import subprocess
import sys

from xtuner.v1.ray.config.worker import RolloutConfig


class vLLMWorker:
    def __init__(self, config: RolloutConfig, rank: int = 0):
        self.config = config
        self.rank = rank
        self.server_process = None

    def _transform_rollout_config_to_server_configs(self):
        cfg = self.config
        args = [
            "--model", cfg.model_path,
            "--port", str(cfg.api_port),
            "--tensor-parallel-size", str(cfg.tensor_parallel_size),
            "--gpu-memory-utilization", str(cfg.gpu_memory_utilization),
            "--max-num-seqs", str(cfg.rollout_max_batch_size),
            "--enable-scale-out",
        ]
        if cfg.return_sampling_mask:
            args += ["--return-sampling-mask", "--logprobs-mode", cfg.logprobs_mode]
        return args

    def launch_server(self):
        env = dict(os.environ)
        env["VLLM_SERVER_DEV_MODE"] = "1"
        cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", *self._transform_rollout_config_to_server_configs()]
        self.server_process = subprocess.Popen(cmd, env=env)
        return self.server_process
