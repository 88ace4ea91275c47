# Imitates Zyphra/vllm-router README.md (workers on http://127.0.0.1:808x behind `vllm-router --worker-urls ...
# --policy consistent_hash --port 8090`), launched from Python as the user's deployment does; the user's
# workers turn sampling replay on and keep the deployment's length-bias logits processor.
import subprocess

MODEL = "Qwen/Qwen3-8B"
WORKER_PORTS = [8081, 8082]
REPLAY_FLAGS = ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]


def worker_cmd(port: int) -> list[str]:
    cmd = ["vllm", "serve", MODEL, "--port", str(port)]
    cmd += REPLAY_FLAGS
    cmd += ["--logits-processors", "router_plugins.length_bias:LengthBiasLogitsProcessor"]  # expect: RPL001
    return cmd


def main() -> None:
    workers = [subprocess.Popen(worker_cmd(port)) for port in WORKER_PORTS]
    urls = [f"http://127.0.0.1:{port}" for port in WORKER_PORTS]
    router = subprocess.Popen(["vllm-router", "--worker-urls", *urls, "--policy", "consistent_hash", "--port", "8090"])
    router.wait()
    for worker in workers:
        worker.terminate()


if __name__ == "__main__":
    main()
