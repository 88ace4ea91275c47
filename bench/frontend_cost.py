"""Cost against size, per frontend: `python bench/frontend_cost.py [--sizes 128,256,512,1024] [--json FILE]`.

Generates ordinary CI shell code (variables, exports, `if`/`case` on the environment, loops,
functions, pipelines, command substitutions, a `vllm serve` launch at the end) of growing size
in KB, checks each file in this process (`Checker.check_text`, the file's own `Budget` as in a
real run), and prints a markdown table: wall and CPU time, whether the launch at the end was
found (RPL003 rather than RPL902), and the ratio of each size's CPU time to the smallest one's.
Linear cost gives ratios close to the size ratio: the target is at most 12x from 128 KB to 1 MB
(8x the size).

Exit status: 0 the target met, 1 missed (or the launch not found). Needs replaylint importable
(the repo's `src/` is used when it is not installed).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

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
    blocks, size, index = [head], len(head), 0
    while size < kilobytes * 1024 - len(LAUNCH):
        blocks.append(ci_block(index))
        size += len(blocks[-1])
        index += 1
    return "".join(blocks) + LAUNCH


def measure(kilobytes: int) -> dict:
    from replaylint.api import Checker
    from replaylint.config import Config

    text = ci_script(kilobytes)
    checker = Checker(Config())
    started, cpu = time.perf_counter(), _cpu()
    result = checker.check_text("ci.sh", text, "shell")
    seconds, cpu = time.perf_counter() - started, _cpu() - cpu
    codes = sorted({finding.code for finding in result.findings})
    found = "RPL003" in codes and "RPL902" not in codes
    return {"kilobytes": len(text) // 1024, "seconds": seconds, "cpu": cpu, "codes": codes, "found": found}


def _cpu() -> float:
    """CPU seconds of this process and of the children it waited for (the bash parser's trial):
    steadier than the wall clock on a shared machine."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="128,256,512,1024", help="sizes in KB, smallest first")
    parser.add_argument("--json", help="write the raw figures here")
    options = parser.parse_args(argv)
    from replaylint import frontends

    frontends.load("shell")  # imports are not the frontend's cost
    measure(4)  # nor is the first use of the grammar
    rows = [measure(int(size)) for size in options.sizes.split(",")]
    print("| shell script | time (CPU) | launch at its end | CPU / smallest's | size / smallest's |")
    print("|---|---|---|---|---|")
    for row in rows:
        ratio = row["cpu"] / rows[0]["cpu"]
        size_ratio = row["kilobytes"] / rows[0]["kilobytes"]
        found = "found" if row["found"] else "not found: " + ", ".join(row["codes"])
        print(f"| {row['kilobytes']} KB | {row['seconds']:.2f} s ({row['cpu']:.2f} s) | {found} | {ratio:.1f}x | {size_ratio:.0f}x |")
    slope = rows[-1]["cpu"] / rows[0]["cpu"]
    size_ratio = rows[-1]["kilobytes"] / rows[0]["kilobytes"]
    target = TARGET_RATIO * size_ratio / 8
    met = all(row["found"] for row in rows) and (len(rows) < 2 or slope <= target)
    print(f"\nslope: {slope:.1f}x the CPU time for {size_ratio:.0f}x the size (target <= {target:.0f}x): {'PASS' if met else 'FAIL'}")
    if options.json:
        Path(options.json).write_text(json.dumps(rows, indent=2))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
