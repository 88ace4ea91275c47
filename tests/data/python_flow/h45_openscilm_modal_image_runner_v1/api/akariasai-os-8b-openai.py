# Imitates allenai/openscilm api/akariasai-os-8b-openai.py (Modal app serving vLLM's OpenAI router, trimmed)
import os

import modal

MODEL_NAME = "akariasai/os_8b"
MODELS_DIR = f"/root/models/{MODEL_NAME}"


def download_model_to_image(model_dir, model_name):
    from huggingface_hub import snapshot_download

    os.makedirs(model_dir, exist_ok=True)
    snapshot_download(model_name, local_dir=model_dir)


app = modal.App("akariasai-os-8b-openai-update")

N_GPU = 1
MINUTES = 60
HOURS = 60 * MINUTES

vllm_image = (
    modal.Image.debian_slim(python_version="3.12")
    .pip_install(
        "transformers",
        "huggingface_hub",
        "vllm==0.34.0",
        "fastapi[standard]==0.115.4",
        force_build=True,
    )
    .run_function(
        download_model_to_image,
        timeout=20 * MINUTES,
        kwargs={"model_dir": MODELS_DIR, "model_name": MODEL_NAME},
    )
    .env({"VLLM_USE_V2_MODEL_RUNNER": "0"})  # expect: RPL206
)


@app.function(
    image=vllm_image,
    gpu=f"A100-80GB:{N_GPU}",
    scaledown_window=5 * MINUTES,
    timeout=24 * HOURS,
    min_containers=1,
    max_containers=1,
)
@modal.concurrent(max_inputs=1000)
@modal.asgi_app()
def serve():
    import fastapi
    import vllm.entrypoints.openai.api_server as api_server
    from vllm.engine.arg_utils import AsyncEngineArgs
    from vllm.engine.async_llm_engine import AsyncLLMEngine
    from vllm.usage.usage_lib import UsageContext

    web_app = fastapi.FastAPI(title=f"OpenAI-compatible {MODEL_NAME} server", docs_url="/docs")
    router = fastapi.APIRouter()
    router.include_router(api_server.router)
    web_app.include_router(router)

    engine_args = AsyncEngineArgs(
        model=MODELS_DIR,
        tensor_parallel_size=N_GPU,
        gpu_memory_utilization=0.90,
        max_model_len=2048,
        enforce_eager=False,  # capture the graph for faster inference, but slower cold starts (30s > 20s)
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

    engine = AsyncLLMEngine.from_engine_args(
        engine_args, usage_context=UsageContext.OPENAI_API_SERVER
    )
    web_app.state.engine = engine

    return web_app
