# Imitates vllm-project/production-stack's serving-engine launch (decode-deploy.yaml's
# `python -m vllm.entrypoints.openai.api_server --port ${PORT} --model ${MODEL_ID} --max-model-len ${MAX_SEQ_LEN}`
# with its values from the pod's env); the user's edit reads them from a .env beside it with python-dotenv.
import os
import subprocess
from pathlib import Path

from dotenv import load_dotenv

load_dotenv(Path(__file__).parent / ".env")

cmd = [
    "python", "-m", "vllm.entrypoints.openai.api_server",
    "--host", "0.0.0.0",
    "--port", os.getenv("PORT", "8000"),
    "--model", os.environ["MODEL_ID"],
    "--max-model-len", os.getenv("MAX_SEQ_LEN", "2048"),
    "--return-sampling-mask",
    "--logprobs-mode", os.getenv("LOGPROBS_MODE", "raw_logprobs"),
    "--enable-scale-out",
]

if __name__ == "__main__":
    subprocess.run(cmd, check=True)
