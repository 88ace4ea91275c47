# Imitates THUDM/CodeGeeX4 local_mode (an OpenAI-compatible chat service for the IDE plugin), with the
# user's edit that starts vLLM's OpenAI server with replay through os.system.
import os

MODEL = "THUDM/codegeex4-all-9b"
PORT = 8000

flags = "--trust-remote-code --max-model-len 8192"
flags += " --return-sampling-mask --logprobs-mode processed_logprobs"  # expect: RPL301
os.system(f"python -m vllm.entrypoints.openai.api_server --model {MODEL} --port {PORT} {flags}")
