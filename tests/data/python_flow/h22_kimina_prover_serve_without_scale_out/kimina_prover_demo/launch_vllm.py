# Imitates MoonshotAI/Kimina-Prover-Preview kimina_prover_demo (a vLLM server of the prover on port 8090
# that error_fix.py and lemma_use.py query); the user launches it with replay from Python, without the
# scale-out routes.
import os
import subprocess

MODEL = "AI-MO/Kimina-Prover-Distill-1.7B"


def launch(port=8090):
    env = os.environ.copy()
    env["CUDA_VISIBLE_DEVICES"] = "0"
    cmd = [
        "vllm",
        "serve",
        MODEL,
        "--port",
        str(port),
        "--max-model-len",
        "16384",
        "--return-sampling-mask",  # expect: RPL301
        "--logprobs-mode",
        "processed_logprobs",
    ]
    return subprocess.Popen(cmd, env=env)


if __name__ == "__main__":
    launch().wait()
