"""The `full` format's cost per finding: `python bench/full_format.py [--launches N] [--runs R]`.

Writes one shell script with N launches (3,000 by default), each with a finding that has a fix,
then times `replaylint check --output-format full` beside `--output-format concise` on it
(interleaved, the median of R runs each). The `full` format prints an excerpt and the fix's diff
for every finding; its cost per finding must not grow with the file, so `full` stays within
TARGET_RATIO of `concise`. Exit status: 0 within the target, 1 not, 2 replaylint failed.
Stdlib only.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_RATIO = 2.0
# One launch: `--return-sampling-mask` without `--logprobs-mode` (RPL003, a safe fix).
LAUNCH = "vllm serve model-{n} \\\n  --return-sampling-mask \\\n  --port {port}\n"


def script(launches: int) -> str:
    return "#!/bin/sh\n" + "".join(LAUNCH.format(n=n, port=8000 + n % 1000) for n in range(launches))


def replaylint() -> list[str]:
    installed = Path(sys.executable).with_name("replaylint")
    return [str(installed)] if installed.exists() else [sys.executable, "-m", "replaylint"]


def timed(command: list[str], cwd: str) -> tuple[float, str]:
    started = time.perf_counter()
    completed = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if completed.returncode not in (0, 1) or "Traceback" in completed.stderr:
        sys.exit(f"replaylint failed ({completed.returncode}): {completed.stderr[-2000:]}")
    return elapsed, completed.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "launches.sh").write_text(script(options.launches))
        base = [*replaylint(), "check", "--no-cache", "--isolated", "launches.sh", "--output-format"]
        times: dict[str, list[float]] = {"concise": [], "full": []}
        findings = 0
        for _ in range(options.runs):
            for name in times:
                elapsed, out = timed([*base, name], folder)
                times[name].append(elapsed)
                if name == "concise":
                    findings = sum(1 for line in out.splitlines() if line.startswith("launches.sh:"))
    concise, full = statistics.median(times["concise"]), statistics.median(times["full"])
    ratio = full / concise
    print(f"| format | {options.launches} launches, {findings} findings (median of {options.runs}) |")
    print("|---|---|")
    print(f"| concise | {concise:.2f} s |")
    print(f"| full | {full:.2f} s ({ratio:.2f}x concise; target <= {TARGET_RATIO}x) |")
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.exit(main())
