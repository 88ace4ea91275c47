from pydantic_settings import BaseSettings, SettingsConfigDict


class RolloutSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ROLLOUT_", extra="ignore")

    model: str = "Qwen/Qwen3-8B"
    temperature: float = 1.0
    top_k: int = 64
    max_tokens: int = 1024
    presence_penalty: float = 0.4
