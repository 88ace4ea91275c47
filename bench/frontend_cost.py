"""Cost against size, per frontend: `python bench/frontend_cost.py [--sizes 128,256,512,1024] [--frontends shell,python,yaml,dockerfile] [--json FILE]`.

For each frontend, generates ordinary code of growing size in KB with one replay launch at its
end: a CI shell script (variables, exports, `if`/`case` on the environment, loops, functions,
pipelines, command substitutions, then `vllm serve`), a Python module (functions, classes,
dicts, comprehensions, then `LLM(...)`), Kubernetes manifests (ConfigMaps and Deployments, then a
Deployment that runs `vllm serve`), a Dockerfile (`RUN` steps with continuations, `ENV`, `COPY`,
then `CMD ["vllm", "serve", ...]`). Checks each file in this process (`Checker.check_text`, the
file's own `Budget` as in a real run) and prints a markdown table per frontend: wall and CPU
time, whether the launch at the end was found (RPL003 rather than RPL902), the ratio of each
size's CPU time to the smallest one's, and the slope: the exponent of cost against size fitted
over the sizes (1.0 is linear, 2.0 quadratic). Linear cost gives ratios close to the size
ratio: the target is at most 12x for 8x the size (128 KB to 1 MB; a Dockerfile 32 to 256 KB) for
every frontend. With the Python frontend, a 5 MB Python file of 48,000 launches is also checked
in a process of its own: its peak memory must stay within 200 MB.

Exit status: 0 the target met, 1 missed (or a launch not found). Needs replaylint importable
(the repo's `src/` is used when it is not installed).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import sys
import time
from pathlib import Path

SOURCE = str(Path(__file__).resolve().parents[1] / "src")
sys.path.insert(0, SOURCE)

LAUNCH = 'vllm serve "$MODEL" --port "$PORT" --return-sampling-mask --enable-scale-out\n'
TARGET_RATIO = 12.0  # the largest size's time over the smallest's, for 8x the size


def ci_block(index: int) -> str:
    """One step of a CI script, about 1 KB, with names of its own (a long script names more)."""
    return f"""
# -- step {index} ------------------------------------------------------------------
# Builds and tests one part of the tree, then keeps its logs and junit files as artifacts.
# The retries and the timeout are the runner's defaults; a failing shard stops the job
# (set CI_DEBUG=1 to trace every command), and only main pushes the image it built.
# Keep the shard count in step with the test matrix in .buildkite/pipeline.yml, and the
# requirements file with the step's own pins: a step never installs what another one pinned.
STEP_{index}_DIR="$WORKDIR/step-{index}"
export STEP_{index}_ID="{index}"
mkdir -p "$STEP_{index}_DIR"
echo "--- :python: step {index} in $STEP_{index}_DIR"
if [ "${{CI_DEBUG:-0}}" = "1" ]; then
  set -x
fi
pip install -q -r "requirements/step-{index}.txt"
python3 tools/run_step.py --step {index} --out "$STEP_{index}_DIR" --retries 3 --timeout 600
for shard in 0 1 2 3; do
  pytest -q "tests/step_{index}" --shard "$shard" --junitxml "$STEP_{index}_DIR/junit-$shard.xml" || exit 1
done
case "$BUILDKITE_BRANCH" in
  main) docker push "registry.invalid/ci:step-{index}" ;;
  *) echo "not pushing step {index} from $BUILDKITE_BRANCH" ;;
esac
step_{index}() {{
  git log --oneline -n 5 | grep -v WIP > "$1/commits.txt" || true
}}
step_{index} "$STEP_{index}_DIR"
REVISION=$(git rev-parse --short HEAD)
[ -n "$REVISION" ] && echo "step {index} built $REVISION" >> "$STEP_{index}_DIR/log.txt"
"""


def ci_script(kilobytes: int) -> str:
    head = '#!/bin/bash\nset -euo pipefail\nWORKDIR="$(pwd)/ci"\nMODEL="${MODEL:-Qwen/Qwen3-8B}"\nPORT=8000\n'
    return _grown(head, ci_block, LAUNCH, kilobytes)


def python_block(index: int) -> str:
    """About 1 KB of an RL repository's ordinary Python: a config class, helpers, a loop."""
    return f"""

class Step{index}Config:
    \"\"\"Settings of step {index}: the shard count and the paths its outputs go to.\"\"\"

    def __init__(self, root, shards=4, retries=3):
        self.root = root
        self.shards = shards
        self.retries = retries
        self.outputs = {{"logs": f"{{root}}/logs-{index}", "junit": f"{{root}}/junit-{index}"}}


def run_step_{index}(config, items):
    totals = {{}}
    for shard in range(config.shards):
        chunk = [item for position, item in enumerate(items) if position % config.shards == shard]
        totals[shard] = sum(len(str(item)) for item in chunk)
        if not chunk:
            continue
    best = max(totals.values(), default=0)
    return {{"step": {index}, "best": best, "paths": sorted(config.outputs.values())}}
"""


def python_module(kilobytes: int) -> str:
    head = "import os\n\nfrom vllm import LLM\n\nMODEL = os.environ.get('MODEL', 'Qwen/Qwen3-8B')\n"
    launch = "\n\nllm = LLM(model=MODEL, return_sampling_mask=True)\n"
    return _grown(head, python_block, launch, kilobytes)


def manifest_block(index: int) -> str:
    """About 1 KB of Kubernetes manifests without vLLM."""
    return f"""---
apiVersion: v1
kind: ConfigMap
metadata:
  name: step-{index}
  labels: {{app: ci, step: "{index}"}}
data:
  SHARDS: "4"
  RETRIES: "3"
  OUTPUT: /data/step-{index}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: worker-{index}
spec:
  replicas: 2
  selector:
    matchLabels: {{app: worker-{index}}}
  template:
    metadata:
      labels: {{app: worker-{index}}}
    spec:
      containers:
        - name: worker
          image: registry.invalid/worker:{index}
          command: ["python3", "-m", "tools.worker", "--step", "{index}"]
          envFrom:
            - configMapRef: {{name: step-{index}}}
          resources:
            limits: {{cpu: "2", memory: 4Gi}}
"""


def manifests(kilobytes: int) -> str:
    launch = """---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: rollout
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.34.0
          command: ["vllm", "serve", "Qwen/Qwen3-8B", "--return-sampling-mask", "--enable-scale-out"]
"""
    return _grown("", manifest_block, launch, kilobytes)


def dockerfile_block(index: int) -> str:
    """About 1 KB of a Dockerfile's build steps."""
    return f"""
# step {index}: the tools and the wheels this stage needs, cached between builds
ENV STEP_{index}_HOME=/opt/step-{index} \\
    STEP_{index}_SHARDS=4
COPY requirements/step-{index}.txt /tmp/requirements-{index}.txt
RUN apt-get update && apt-get install -y --no-install-recommends \\
        curl git ca-certificates && \\
    pip install --no-cache-dir -r /tmp/requirements-{index}.txt && \\
    mkdir -p "$STEP_{index}_HOME" && \\
    rm -rf /var/lib/apt/lists/* /tmp/requirements-{index}.txt
WORKDIR /opt/step-{index}
RUN python3 -c "import sys; print(sys.version)" > version-{index}.txt
"""


def dockerfile(kilobytes: int) -> str:
    launch = '\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--return-sampling-mask", "--enable-scale-out"]\n'
    return _grown("FROM vllm/vllm-openai:v0.34.0\n", dockerfile_block, launch, kilobytes)


def _grown(head: str, block, launch: str, kilobytes: int) -> str:
    blocks, size, index = [head], len(head), 0
    while size < kilobytes * 1024 - len(launch):
        blocks.append(block(index))
        size += len(blocks[-1])
        index += 1
    return "".join(blocks) + launch


FRONTENDS = {  # kind: (what it is called in the table, the file's name, its generator, its sizes in KB)
    "shell": ("shell script", "ci.sh", ci_script, "128,256,512,1024"),
    "python": ("Python module", "rollout.py", python_module, "128,256,512,1024"),
    "yaml": ("Kubernetes manifests", "deploy.yaml", manifests, "128,256,512,1024"),
    # The largest Dockerfiles of the real-world corpus are under 20 KB; 1 MB of `RUN` steps is past
    # the work one file may take (RPL902), as it should be.
    "dockerfile": ("Dockerfile", "Dockerfile", dockerfile, "32,64,128,256"),
}


def measure(kind: str, kilobytes: int) -> dict:
    from replaylint.engine.checker import Checker
    from replaylint.engine.config import Config

    _, name, generate, _ = FRONTENDS[kind]
    text = generate(kilobytes)
    checker = Checker(Config())
    started, cpu = time.perf_counter(), _cpu()
    result = checker.check_text(name, text, kind)
    seconds, cpu = time.perf_counter() - started, _cpu() - cpu
    codes = sorted({finding.code for finding in result.findings})
    found = "RPL003" in codes and "RPL902" not in codes
    return {"frontend": kind, "kilobytes": len(text) // 1024, "seconds": seconds, "cpu": cpu, "codes": codes, "found": found}


def _cpu() -> float:
    """CPU seconds of this process and of the children it waited for (the bash parser's trial):
    steadier than the wall clock on a shared machine."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def slope(rows: list[dict]) -> float:
    """The exponent of CPU time against size, fitted by least squares on their logarithms."""
    points = [(math.log(row["kilobytes"]), math.log(max(row["cpu"], 1e-6))) for row in rows]
    mean_x = sum(x for x, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 1.0


def report(kind: str, rows: list[dict]) -> bool:
    """Print one frontend's table; whether it met the target."""
    what = FRONTENDS[kind][0]
    print(f"| {what} | time (CPU) | launch at its end | CPU / smallest's | size / smallest's |")
    print("|---|---|---|---|---|")
    for row in rows:
        ratio = row["cpu"] / rows[0]["cpu"]
        size_ratio = row["kilobytes"] / rows[0]["kilobytes"]
        found = "found" if row["found"] else "not found: " + ", ".join(row["codes"])
        print(f"| {row['kilobytes']} KB | {row['seconds']:.2f} s ({row['cpu']:.2f} s) | {found} | {ratio:.1f}x | {size_ratio:.0f}x |")
    growth = rows[-1]["cpu"] / rows[0]["cpu"]
    size_ratio = rows[-1]["kilobytes"] / rows[0]["kilobytes"]
    target = TARGET_RATIO * size_ratio / 8
    met = all(row["found"] for row in rows) and (len(rows) < 2 or growth <= target)
    exponent = f", slope {slope(rows):.2f}" if len(rows) > 1 else ""
    print(
        f"\n{what}: {growth:.1f}x the CPU time for {size_ratio:.0f}x the size (target <= {target:.0f}x){exponent}: {'PASS' if met else 'FAIL'}\n"
    )
    return met


MEMORY_TARGET_MB = 200  # a 5 MB Python file


def python_memory(megabytes: int = 5) -> bool:
    """Check a Python file of `megabytes` MB holding a launch in each of its functions (48,000
    of them, as generated code may) in a process of its own, and print its peak memory: within
    MEMORY_TARGET_MB, the file judged or stopped by its work budget (RPL902)."""
    import subprocess
    import tempfile

    launch = "def rollout_{0}(model):\n    llm = LLM(model=model, return_sampling_mask=True, seed={0})\n    return llm\n\n\n"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated.py"
        parts, size, index = ["from vllm import LLM\n\n\n"], 0, 0
        while size < megabytes * 1024 * 1024:
            parts.append(launch.format(index))
            size += len(parts[-1])
            index += 1
        path.write_text("".join(parts))
        command = [sys.executable, "-m", "replaylint", "check", "--no-cache", "--isolated", "--output-format", "concise", path.name]
        started = time.perf_counter()
        completed = subprocess.run(command, cwd=folder, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": SOURCE})
        seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    codes = sorted(set(re.findall(r"RPL\d{3}", completed.stdout)))
    met = peak <= MEMORY_TARGET_MB and "Traceback" not in completed.stderr and bool(codes)
    print("| Python file | launches | time | peak memory | findings | target |\n|---|---|---|---|---|---|")
    print(
        f"| {megabytes} MB | {index:,} | {seconds:.2f} s | {peak:.0f} MB | {', '.join(codes) or 'none'} | <= {MEMORY_TARGET_MB} MB: {'PASS' if met else 'FAIL'} |\n"
    )
    return met


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", help="sizes in KB, smallest first (default: each frontend's, 8x apart)")
    parser.add_argument("--frontends", default=",".join(FRONTENDS), help="which frontends, comma-separated")
    parser.add_argument("--json", help="write the raw figures here")
    options = parser.parse_args(argv)
    from replaylint import frontends

    every, met = [], True
    for kind in options.frontends.split(","):
        frontends.load(kind)  # imports are not the frontend's cost
        measure(kind, 4)  # nor is the first use of a grammar
        rows = [measure(kind, int(size)) for size in (options.sizes or FRONTENDS[kind][3]).split(",")]
        met = report(kind, rows) and met
        every += rows
    if "python" in options.frontends.split(","):
        met = python_memory() and met
    if options.json:
        Path(options.json).write_text(json.dumps(every, indent=2))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
