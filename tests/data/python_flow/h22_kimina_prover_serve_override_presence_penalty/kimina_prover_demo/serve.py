# Imitates MoonshotAI/Kimina-Prover-Preview kimina_prover_demo/error_fix.py (temperature=0.8,
# presence_penalty=0.2 to the prover's vLLM server on port 8090): the user moves those into the server's
# generation defaults and starts it with replay and the scale-out routes.
import json
import shlex
import subprocess

MODEL = "AI-MO/Kimina-Prover-Distill-1.7B"
GENERATION_DEFAULTS = {
    "temperature": 0.8,
    "top_k": 20,
    "presence_penalty": 0.2,  # expect: RPL302
}


def serve(port=8090):
    command = f"vllm serve {MODEL} --port {port} --max-model-len 16384"
    command += " --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
    command += f" --override-generation-config '{json.dumps(GENERATION_DEFAULTS)}'"
    return subprocess.Popen(shlex.split(command))


if __name__ == "__main__":
    serve().wait()
