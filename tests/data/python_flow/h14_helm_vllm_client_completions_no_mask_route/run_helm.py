# Imitates stanford-crfm/helm: a local vLLM deployment queried by helm's VLLMClient (server started first)
import time

from helm_local.vllm_client import VLLMClient
from helm_local.vllm_server import MODEL, start_server

if __name__ == "__main__":
    server = start_server()
    time.sleep(120)
    try:
        client = VLLMClient()
        print(client.make_request(MODEL, "The capital of France is"))
    finally:
        server.terminate()
