# Imitates vllm-project/production-stack's serving-engine launch (decode-deploy.yaml's api_server command with
# extra engine arguments, operator/config/default.yaml "Extra arguments for vllm serve"); the user's edit
# serves replay and gives the server sampling defaults through --override-generation-config.
import json
import subprocess

EXTRA_ARGS = ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]
GENERATION_DEFAULTS = {"temperature": 0.8, "top_k": 40}
GENERATION_DEFAULTS.update(
    repetition_penalty=1.1,  # expect: RPL302
)


def build_command(model_id: str, port: int = 8000) -> list:
    return [
        "vllm", "serve", model_id,
        "--host", "0.0.0.0",
        "--port", str(port),
        "--max-model-len", "2048",
        "--generation-config", "vllm",
        "--override-generation-config", json.dumps(GENERATION_DEFAULTS),
        *EXTRA_ARGS,
    ]


if __name__ == "__main__":
    subprocess.run(build_command("meta-llama/Llama-3.1-8B-Instruct"), check=True)
