# Imitates MoonshotAI/Kimina-Prover-Preview kimina_prover_demo (its demos talk to a vLLM server of
# AI-MO/Kimina-Prover-Distill-1.7B at localhost:8090); the user starts that server with replay and the
# scale-out routes.
import subprocess

MODEL = "AI-MO/Kimina-Prover-Distill-1.7B"
PORT = 8090


def start_server():
    cmd = ["vllm", "serve", MODEL, "--port", str(PORT), "--max-model-len", "16384"]
    cmd += ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]
    return subprocess.Popen(cmd)
