# Imitates marin-community/marin lib/marin/src/marin/inference/vllm_server.py, trimmed.
import logging
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass

import requests

from marin.inference.model_config import ModelConfig

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class VllmServerHandle:
    """A handle for a running native vLLM server."""

    server_url: str
    port: int
    process: subprocess.Popen[str]
    log_dir: str

    def stop(self, *, timeout_seconds: float = 10) -> None:
        self.process.terminate()
        self.process.wait(timeout=timeout_seconds)


def resolve_model_name_or_path(model: ModelConfig) -> tuple[str, ModelConfig]:
    """Resolve the `model` argument to pass to vLLM."""
    model_name_or_path = model.path if model.path is not None else model.name
    return model_name_or_path, model


def _engine_kwargs_to_cli_args(engine_kwargs: dict) -> list[str]:
    args: list[str] = []
    load_format = engine_kwargs.get("load_format")
    if load_format is not None:
        args.extend(["--load-format", load_format])
    max_model_len = engine_kwargs.get("max_model_len")
    if max_model_len is not None:
        args.extend(["--max-model-len", str(max_model_len)])
    gpu_memory_utilization = engine_kwargs.get("gpu_memory_utilization")
    if gpu_memory_utilization is not None:
        args.extend(["--gpu-memory-utilization", str(gpu_memory_utilization)])
    max_num_batched_tokens = engine_kwargs.get("max_num_batched_tokens")
    if max_num_batched_tokens is not None:
        args.extend(["--max-num-batched-tokens", str(max_num_batched_tokens)])
    return args


def _poll_until_ready(server_url: str, *, timeout_seconds: int, poll_interval_seconds: float = 5) -> None:
    """Block until ``GET {server_url}/models`` returns 200."""
    models_url = f"{server_url}/models"
    start_time = time.time()
    while True:
        try:
            response = requests.get(models_url, timeout=5)
            if response.status_code == 200:
                return
        except (requests.ConnectionError, requests.Timeout):
            pass  # Server not ready yet.
        if time.time() - start_time > timeout_seconds:
            raise TimeoutError(f"vLLM server at {models_url} did not become ready within {timeout_seconds}s")
        time.sleep(poll_interval_seconds)


def _get_first_model_id(server_url: str) -> str:
    response = requests.get(f"{server_url}/models", timeout=30)
    response.raise_for_status()
    payload = response.json()
    data = payload.get("data", [])
    if not data:
        raise RuntimeError(f"No models returned from {server_url}/models: {str(payload)[:2000]}")
    return str(data[0].get("id"))


class VllmEnvironment:
    """Manage vLLM server lifecycle and eval-client configuration."""

    def __init__(
        self,
        model: ModelConfig,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        timeout_seconds: int = 3600,
        extra_args: list[str] | None = None,
    ) -> None:
        self.model_name_or_path, self.model = resolve_model_name_or_path(model)
        self.host = host
        self.port = port
        self.timeout_seconds = timeout_seconds
        self.extra_cli_args = [*_engine_kwargs_to_cli_args(self.model.engine_kwargs), *(extra_args or [])]

        self.vllm_server: VllmServerHandle | None = None
        self.model_id: str | None = None

    def __enter__(self) -> "VllmEnvironment":
        if self.vllm_server is None:
            self.vllm_server = _start_vllm_native_server(
                model_name_or_path=self.model_name_or_path,
                host=self.host,
                port=self.port,
                timeout_seconds=self.timeout_seconds,
                extra_cli_args=self.extra_cli_args,
            )
            self.model_id = _get_first_model_id(self.vllm_server.server_url)
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.close()

    def close(self) -> None:
        if self.vllm_server is not None:
            self.vllm_server.stop()
            self.vllm_server = None

    @property
    def server_url(self) -> str:
        if self.vllm_server is None:
            raise RuntimeError("vLLM server is not running in this environment.")
        return self.vllm_server.server_url


def _vllm_env() -> dict[str, str]:
    """Build the vLLM environment for the native (subprocess) backend."""
    env = dict(os.environ)
    env.setdefault("TOKENIZERS_PARALLELISM", "false")
    return env


def _start_vllm_native_server(
    *,
    model_name_or_path: str,
    host: str = "127.0.0.1",
    port: int | None = None,
    timeout_seconds: int = 3600,
    extra_cli_args: list[str] | None = None,
) -> VllmServerHandle:
    """Start `vllm serve` as a subprocess and wait until `/v1/models` responds."""

    resolved_port = port if port is not None else 8000

    vllm_bin = shutil.which("vllm") or "vllm"
    cmd: list[str] = [
        vllm_bin,
        "serve",
        model_name_or_path,
        "--trust-remote-code",
        "--host",
        host,
        "--port",
        str(resolved_port),
        *(extra_cli_args or []),
    ]

    log_dir = tempfile.mkdtemp(prefix="vllm_server_")
    stdout_f = open(os.path.join(log_dir, "stdout.log"), "w")  # noqa: SIM115
    stderr_f = open(os.path.join(log_dir, "stderr.log"), "w")  # noqa: SIM115
    process = subprocess.Popen(
        cmd,
        stdout=stdout_f,
        stderr=stderr_f,
        text=True,
        env=_vllm_env(),
        start_new_session=True,
    )
    server_url: str = f"http://{host}:{resolved_port}/v1"
    handle = VllmServerHandle(server_url=server_url, port=resolved_port, process=process, log_dir=log_dir)
    try:
        _poll_until_ready(server_url, timeout_seconds=timeout_seconds)
    except Exception:
        handle.stop()
        raise
    return handle
