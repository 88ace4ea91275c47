# Imitates PrimeIntellect-ai/prime-rl's pydantic-settings configs (BaseSettings with an env prefix and
# an env file; field defaults used when the environment sets nothing)
from pydantic_settings import BaseSettings, SettingsConfigDict


class RolloutSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ROLLOUT_", env_file=".env")

    model: str = "Qwen/Qwen3-4B"
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"
    temperature: float = 1.0
    top_k: int = 20
