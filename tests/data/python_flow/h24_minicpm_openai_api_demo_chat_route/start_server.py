# Imitates OpenBMB/MiniCPM demo/openai_api_demo (the server the request demo talks to on
# 127.0.0.1:8000), served by vLLM instead: the argv list built from a dict of options, replay on.
import subprocess

MODEL = "openbmb/MiniCPM-2B-sft-bf16"
SERVER_OPTIONS = {
    "--host": "127.0.0.1",
    "--port": "8000",
    "--served-model-name": "MiniCPM-2B",
    "--max-model-len": "4096",
    "--logprobs-mode": "processed_logprobs",
}


def build_command():
    cmd = ["vllm", "serve", MODEL, "--trust-remote-code"]
    for flag, value in SERVER_OPTIONS.items():
        cmd += [flag, value]
    cmd += ["--return-sampling-mask", "--enable-scale-out"]
    return cmd


if __name__ == "__main__":
    subprocess.Popen(build_command()).wait()
