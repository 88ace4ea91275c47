# Imitates snowflakedb/ArcticTraining arctic_training/arctic_rl_client/config.py (pydantic launch configs),
# with a user's ServerLaunchConfig that starts `vllm serve` with replay instead of ArcticInference's app.
import json

from pydantic import BaseModel, Field


class InferenceServerConfig(BaseModel):
    host: str = "localhost"
    port: int = 8000
    model_id: str = "Snowflake/Llama-3.1-SwiftKV-8B-Instruct"


class ServerLaunchConfig(BaseModel):
    enabled: bool = Field(default=True, description="Spawn the server on launch_server().")
    extra_args: list[str] = Field(
        default_factory=lambda: [
            "--return-sampling-mask",
            "--logprobs-mode",
            "processed_logprobs",
            "--enable-scale-out",
            "--override-generation-config",
            json.dumps({"repetition_penalty": 1.05}),  # expect: RPL302
        ]
    )


class ArcticRLClientConfig(BaseModel):
    inference: InferenceServerConfig = Field(default_factory=InferenceServerConfig)
    server: ServerLaunchConfig = Field(default_factory=ServerLaunchConfig)
