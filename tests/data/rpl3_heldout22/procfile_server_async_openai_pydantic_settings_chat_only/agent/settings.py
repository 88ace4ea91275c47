from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    policy_base_url: str = "http://localhost:8011/v1"
    policy_model: str = "Qwen/Qwen3-8B"
    api_key: str = "EMPTY"


settings = Settings()
