# Imitates inclusionAI/AReaL areal/infra/launcher/vllm_server.py (VLLMServerWrapper.run: the server started with a custom env)
from launcher import build_cmd, launch_server_cmd


def main():
    process = launch_server_cmd(
        build_cmd("Qwen/Qwen2.5-1.5B-Instruct", port=8000),
        custom_env={"VLLM_USE_V2_MODEL_RUNNER": "0"},  # expect: RPL206
    )
    process.wait()


if __name__ == "__main__":
    main()
