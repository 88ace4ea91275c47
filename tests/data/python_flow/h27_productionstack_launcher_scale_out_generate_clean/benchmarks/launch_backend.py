# Imitates vllm-project/production-stack's serving-engine launch (python -m vllm.entrypoints.openai.api_server
# --host 0.0.0.0 --port ${PORT} --model ${MODEL_ID} --max-model-len ${MAX_SEQ_LEN}, from
# examples/disaggregated_prefill_orchestrated/decode-deploy.yaml) as a local Python launcher; the user's edit
# serves replay with the scale-out route.
import shlex
import subprocess

MODEL_ID = "meta-llama/Llama-3.1-8B-Instruct"
PORT = 8000
MAX_SEQ_LEN = 2048
REPLAY_FLAGS = "--return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"


def start_engine():
    cmd = (
        f"python -m vllm.entrypoints.openai.api_server --host 0.0.0.0 --port {PORT} "
        f"--model {MODEL_ID} --max-model-len {MAX_SEQ_LEN} {REPLAY_FLAGS}"
    )
    return subprocess.Popen(shlex.split(cmd))
