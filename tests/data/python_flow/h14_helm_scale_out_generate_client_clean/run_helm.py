# Imitates stanford-crfm/helm: a local vLLM deployment queried by a helm-style client (server started first)
import time

from helm_local.vllm_client import VLLMTokenClient
from helm_local.vllm_server import start_server

if __name__ == "__main__":
    server = start_server()
    time.sleep(120)
    try:
        client = VLLMTokenClient()
        result = client.make_request([128000, 791, 6864, 315, 9822, 374])
        print(result["choices"][0]["token_ids"], result["choices"][0].get("sampling_mask"))
    finally:
        server.terminate()
