#!/usr/bin/env python
# Imitates meta-llama/llama-cookbook src/finetune_pipeline/inference/start_vllm_server.py (config.yaml's `inference:` keys, the rest passed on as `--key value`)
import argparse
import logging
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional

import yaml

logger = logging.getLogger(__name__)


def read_config(config_path: str) -> Dict:
    with open(config_path, "r") as f:
        return yaml.safe_load(f)


def start_vllm_server(
    model_path: str,
    port: int = 8000,
    host: str = "0.0.0.0",
    tensor_parallel_size: int = 1,
    max_model_len: int = 4096,
    max_num_seqs: int = 256,
    quantization: Optional[str] = None,
    dtype: str = "auto",
    gpu_memory_utilization: float = 0.9,
    trust_remote_code: bool = False,
    enforce_eager: bool = False,
    additional_args: Optional[Dict] = None,
) -> None:
    cmd = ["vllm", "serve", model_path]
    cmd.extend(["--port", str(port)])
    cmd.extend(["--host", host])
    cmd.extend(["--tensor-parallel-size", str(tensor_parallel_size)])
    cmd.extend(["--max-model-len", str(max_model_len)])
    cmd.extend(["--max-num-seqs", str(max_num_seqs)])
    cmd.extend(["--gpu-memory-utilization", str(gpu_memory_utilization)])
    cmd.extend(["--dtype", dtype])
    if quantization:
        cmd.extend(["--quantization", quantization])
    if trust_remote_code:
        cmd.append("--trust-remote-code")
    if enforce_eager:
        cmd.append("--enforce-eager")
    if additional_args:
        for key, value in additional_args.items():
            if isinstance(value, bool):
                if value:
                    cmd.append(f"--{key}")
            else:
                cmd.extend([f"--{key}", str(value)])
    logger.info(f"Starting vLLM server with command: {' '.join(cmd)}")
    try:
        subprocess.run(cmd, check=True)
    except subprocess.CalledProcessError as e:
        logger.error(f"Failed to start vLLM server: {e}")
        sys.exit(1)


def find_config_file():
    script_dir = Path(__file__).resolve().parent
    config_path = script_dir.parent / "config.yaml"
    return str(config_path) if config_path.exists() else None


def main():
    parser = argparse.ArgumentParser(description="Start a vLLM server for inference")
    parser.add_argument("--config", type=str, help="Path to a configuration file (JSON or YAML)")
    parser.add_argument("--model-path", type=str, help="Path to the model or Hugging Face model ID")
    parser.add_argument("--port", type=int, default=8000, help="Port to run the server on")
    parser.add_argument("--host", type=str, default="0.0.0.0", help="Host to run the server on")
    parser.add_argument("--tensor-parallel-size", type=int, default=1)
    parser.add_argument("--max-model-len", type=int, default=4096)
    args = parser.parse_args()

    config = {}
    config_path = args.config or find_config_file()
    if config_path:
        config = read_config(config_path)
    inference_config = config.get("inference", {})

    model_path = args.model_path or inference_config.get("model_path")
    if not model_path:
        logger.error("Model path must be provided either via --model-path or in the config file under inference.model_path")
        sys.exit(1)

    params = {
        "model_path": model_path,
        "port": args.port if args.port != parser.get_default("port") else inference_config.get("port", args.port),
        "host": args.host if args.host != parser.get_default("host") else inference_config.get("host", args.host),
        "tensor_parallel_size": (
            args.tensor_parallel_size
            if args.tensor_parallel_size != parser.get_default("tensor_parallel_size")
            else inference_config.get("tensor_parallel_size", args.tensor_parallel_size)
        ),
        "max_model_len": (
            args.max_model_len
            if args.max_model_len != parser.get_default("max_model_len")
            else inference_config.get("max_model_len", args.max_model_len)
        ),
    }
    additional_args = {k: v for k, v in inference_config.items() if k not in params}
    if additional_args:
        params["additional_args"] = additional_args
    start_vllm_server(**params)


if __name__ == "__main__":
    main()
