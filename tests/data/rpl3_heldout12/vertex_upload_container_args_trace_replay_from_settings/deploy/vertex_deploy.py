from google.cloud import aiplatform

from deploy.settings import (
    ACCELERATOR_COUNT,
    ACCELERATOR_TYPE,
    ENABLE_TRACE_REPLAY,
    MODEL_ID,
    PROJECT_ID,
    REGION,
    VLLM_IMAGE,
)


def deploy_model_vllm(model_name: str, machine_type: str = "g2-standard-8"):
    endpoint = aiplatform.Endpoint.create(display_name=f"{model_name}-endpoint")

    vllm_args = [
        "--host=0.0.0.0",
        "--port=8080",
        f"--model={MODEL_ID}",
        f"--tensor-parallel-size={ACCELERATOR_COUNT}",
        "--max-model-len=8192",
        "--return-sampling-mask",
        "--logprobs-mode=processed_logprobs",
        "--enable-scale-out",
    ]
    if ENABLE_TRACE_REPLAY:
        vllm_args.append("--enable-trace-replay")

    model = aiplatform.Model.upload(
        display_name=model_name,
        serving_container_image_uri=VLLM_IMAGE,
        serving_container_command=["python", "-m", "vllm.entrypoints.openai.api_server"],
        serving_container_args=vllm_args,
        serving_container_ports=[8080],
        serving_container_predict_route="/inference/v1/generate",
        serving_container_health_route="/health",
    )
    model.deploy(
        endpoint=endpoint,
        machine_type=machine_type,
        accelerator_type=ACCELERATOR_TYPE,
        accelerator_count=ACCELERATOR_COUNT,
        deploy_request_timeout=1800,
    )
    return model, endpoint


if __name__ == "__main__":
    aiplatform.init(project=PROJECT_ID, location=REGION)
    deploy_model_vllm("qwen3-replay")
