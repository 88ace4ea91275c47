"""A worker's warm-up while it waits for its first job: a check of a small document of each kind
loads what checks load the first time (the frontends, libcst, tree-sitter, yaml, the rules),
so the first document opened in the editor is checked as fast as the next ones.

The samples live in memory under a fresh empty folder (nothing is read from a user's tree) and
what they find is dropped. Warm-up stops as soon as a job arrives: a job never waits for more
than the one sample being checked.
"""

from __future__ import annotations

import os
import select
import shutil
import sys
import tempfile
from typing import BinaryIO, Callable

from ..engine.config import Config

LAUNCH = "vllm serve model --return-sampling-mask --port 8000"
# The kinds in the order editors open them most; each sample has a launch the rules judge.
SAMPLES = {
    "train.py": f"import subprocess\n\nsubprocess.run({LAUNCH.split()!r})\n",
    "serve.sh": f"#!/bin/sh\n{LAUNCH}\n",
    "deploy.yaml": f"containers:\n  - name: vllm\n    command: [{', '.join(LAUNCH.split())}]\n",
    "Dockerfile": f"FROM vllm/vllm-openai\nCMD {LAUNCH}\n",
}


def warm_up(analysis, check: Callable[[str, str, str], object], requests: BinaryIO) -> None:
    """Check each sample with `check(folder, path, text)` (a check by `analysis`, a
    `server.analysis.Analysis`) until `requests` has a job."""
    folder = tempfile.mkdtemp(prefix="replaylint-warm-up-")
    try:
        analysis.configs[folder] = Config(root=folder)
        for name, text in SAMPLES.items():
            if _waiting(requests):
                return
            path = os.path.join(folder, name)
            check(folder, path, text)
    except Exception:  # a warm-up is an optimisation: the job that follows reports what is wrong
        pass
    finally:
        analysis.configs.pop(folder, None)
        analysis.logs = []
        shutil.rmtree(folder, ignore_errors=True)


def _waiting(stream: BinaryIO) -> bool:
    """Whether a job waits on the pipe (always False where pipes cannot be polled: Windows)."""
    if sys.platform == "win32":
        return False
    try:
        return bool(select.select([stream], [], [], 0)[0])
    except (OSError, ValueError):
        return False
