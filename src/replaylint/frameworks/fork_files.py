"""The files of a framework's own source that the fork readers read (`*_fork.py`), each by its
path under the fork's root: a launch of the tree reads the one above it (`nearby.found_upward`).
A run that names one of them alone (pre-commit) checks again the launches that read it
(`run.fork_launches`)."""

from __future__ import annotations

import functools

# The package folders those paths go through: a run whose files name none of them has no fork file.
PACKAGES = ("verl", "skyrl", "openrlhf", "nemo_rl", "open_instruct", "prime_rl")


@functools.cache
def fork_files() -> tuple[str, ...]:
    from . import nemo_rl_fork, open_instruct_fork, openrlhf_fork, openrlhf_requests, prime_rl_fork, skyrl_fork, verl_fork

    return (
        verl_fork.SERVER,
        verl_fork.ROLLOUT_YAML,
        skyrl_fork.ENGINE_ARGS,
        skyrl_fork.CONFIG,
        openrlhf_fork.ENGINES,
        openrlhf_fork.CLI,
        openrlhf_requests.SAMPLES,
        nemo_rl_fork.WORKER,
        nemo_rl_fork.ASYNC_WORKER,
        nemo_rl_fork.REPLAY_MODULE,
        open_instruct_fork.ENGINES,
        prime_rl_fork.SERVER,
        *prime_rl_fork.CONFIGS,
        *prime_rl_fork.ORCHESTRATORS,
    )


def fork_root(path: str) -> tuple[str, str] | None:
    """(the fork's root, the path under it) when `path` is a file the fork readers read."""
    normal = path.replace("\\", "/")
    if not any(f"{package}/" in normal for package in PACKAGES):
        return None
    for relative in fork_files():
        if normal == relative or normal.endswith("/" + relative):
            return normal[: len(normal) - len(relative)].rstrip("/") or ".", relative
    return None
