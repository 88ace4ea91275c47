# Imitates OpenPipe/ART src/art/dev/openai_server.py (defaults in EngineArgs(...), then .update(config.get("engine_args", {})))
from typing_extensions import TypedDict

from .engine import EngineArgs


class OpenAIServerConfig(TypedDict, total=False):
    log_file: str
    engine_args: EngineArgs


def get_openai_server_config(
    base_model: str,
    log_file: str,
    config: "OpenAIServerConfig | None" = None,
) -> OpenAIServerConfig:
    if config is None:
        config = OpenAIServerConfig()
    log_file = config.get("log_file", log_file)
    engine_args = EngineArgs(
        model=base_model,
        served_model_name=base_model,
        disable_log_stats=True,
        generation_config="vllm",
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    engine_args.update(config.get("engine_args", {}))
    return OpenAIServerConfig(log_file=log_file, engine_args=engine_args)
