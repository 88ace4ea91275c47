# Imitates marin-community/marin lib/marin/src/marin/inference/vllm.py (start_local_vllm_server: a ModelConfig with engine_kwargs into VllmEnvironment), trimmed.
import logging

from marin.inference.model_config import ModelConfig
from marin.inference.vllm_server import VllmEnvironment

logger = logging.getLogger(__name__)

MODEL = "Qwen/Qwen3-0.6B"


def main() -> None:
    vllm_model = ModelConfig(
        name="qwen3-0.6b",
        path=MODEL,
        engine_kwargs={
            "max_model_len": 2048,
            "max_num_batched_tokens": 1024,
        },
    )
    with VllmEnvironment(
        model=vllm_model,
        port=8000,
        timeout_seconds=1800,
        extra_args=["--return-sampling-mask", "--enable-scale-out"],  # expect: RPL003
    ) as env:
        logger.info("vLLM server ready model_id=%s url=%s", env.model_id, env.server_url)


if __name__ == "__main__":
    main()
