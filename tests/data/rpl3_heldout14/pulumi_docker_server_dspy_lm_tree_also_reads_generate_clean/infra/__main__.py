"""The policy server: one vLLM container on the local Docker host."""

import pulumi
import pulumi_docker as docker

image = docker.RemoteImage("vllm-openai", name="vllm/vllm-openai:v0.34.0", keep_locally=True)

policy_server = docker.Container(
    "policy-server",
    image=image.image_id,
    entrypoints=["vllm"],
    command=[
        "serve",
        "Qwen/Qwen3-1.7B",
        "--port",
        "8000",
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
        "--enable-scale-out",
    ],
    ports=[docker.ContainerPortArgs(internal=8000, external=8000)],
    device_requests=[docker.ContainerDeviceRequestArgs(driver="nvidia", count=-1, capabilities=[["gpu"]])],
    shm_size=16384,
    restart="unless-stopped",
)

pulumi.export("policy_endpoint", "http://localhost:8000")
