import json
import shlex
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def speculative_arg(path: Path) -> str:
    # --speculative-config takes a JSON string, not a path: inline the file
    return shlex.quote(json.dumps(json.loads(path.read_text())))


def server_command(model: str, port: int, spec_path: Path) -> str:
    return (
        f"vllm serve {model} --port {port} --max-model-len 8192 "
        f"--return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out "
        f"--speculative-config {speculative_arg(spec_path)}"
    )


if __name__ == "__main__":
    cmd = server_command("Qwen/Qwen3-8B", 8000, ROOT / "configs" / "speculative.json")
    subprocess.Popen(shlex.split(cmd)).wait()
