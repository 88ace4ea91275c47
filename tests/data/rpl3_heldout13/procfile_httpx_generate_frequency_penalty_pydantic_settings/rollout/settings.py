from pydantic_settings import BaseSettings, SettingsConfigDict


class RolloutSettings(BaseSettings):
    """Rollout knobs; each can be overridden by a ROLLOUT_* variable."""

    model_config = SettingsConfigDict(env_prefix="ROLLOUT_")

    server_url: str = "http://localhost:8000"
    temperature: float = 1.0
    top_k: int = 50
    frequency_penalty: float = 0.3
    max_tokens: int = 2048


settings = RolloutSettings()
