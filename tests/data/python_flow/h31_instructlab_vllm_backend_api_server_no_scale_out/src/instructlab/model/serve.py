# Imitates instructlab/instructlab src/instructlab/model/serve.py (the vLLM backend of `ilab model serve`),
# which hands its vllm_args to src/instructlab/model/backends/vllm.py's Server (build_vllm_cmd: a
# `python -m vllm.entrypoints.openai.api_server` word list run by subprocess.Popen).

# Standard
import logging
import pathlib

# Local
from .backends import vllm

logger = logging.getLogger(__name__)

DEFAULT_MODEL_PATH = pathlib.Path("models/granite-7b-lab")


def serve_backend(model_path: pathlib.Path, host: str = "127.0.0.1", port: int = 8000):
    backend_instance = vllm.Server(
        api_base=f"http://{host}:{port}/v1",
        model_family="granite",
        model_path=model_path,
        chat_template="tokenizer",
        host=host,
        port=port,
        vllm_args=[
            "--max-model-len",
            "2048",
            "--return-sampling-mask",  # expect: RPL301
            "--logprobs-mode",
            "processed_logprobs",
        ],
    )
    logger.info("Starting vLLM server for %s", model_path)
    backend_instance.run()


if __name__ == "__main__":
    serve_backend(DEFAULT_MODEL_PATH)
