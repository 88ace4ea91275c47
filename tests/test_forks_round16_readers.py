"""What round 16 of the held-out forks taught the OpenRLHF reader (tests/test_forks_heldout16.py), and its
precision: each test takes the held-out tree, checks what it reports, and changes it so that the value may not
reach vLLM, or does, or reaches it another way.

OpenRLHF: the engines' environment is the command's, as for verl and SkyRL: a `python3 -m openrlhf.cli.train_ppo_ray`
run directly starts Ray (and so its engine actors) with the script's exports and prefixes; a `ray job submit`
job's actors get the job's environment (its runtime env's `env_vars`), not the submitting shell's exports. So a
`VLLM_USE_V2_MODEL_RUNNER` other than 1 set there stops vLLM 0.34.0 (RPL206), mask or not; a value from outside
the tree, or a launch that starts no engine, says nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout16 import CORPUS
from test_forks_round2_readers import edit

CASE = "openrlhf_mask_tied_to_logprobs_mode_v1_runner_env"
LAUNCH = "examples/scripts/train_ppo_replay.sh"
EXPORT = "export VLLM_USE_V2_MODEL_RUNNER=0\n"
COMMAND = "python3 -m openrlhf.cli.train_ppo_ray \\\n"
ENGINES = "   --vllm.num_engines 2 \\\n"
REMOVED = {("RPL206", LAUNCH, 2)}


def tree(tmp_path: Path) -> Path:
    return in_repository(CORPUS / CASE, tmp_path / CASE)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (EXPORT, EXPORT),
        (EXPORT, "export VLLM_USE_V2_MODEL_RUNNER='0'\n"),
        (EXPORT + COMMAND, "VLLM_USE_V2_MODEL_RUNNER=0 " + COMMAND),
        (EXPORT, "VLLM_USE_V2_MODEL_RUNNER=0; export VLLM_USE_V2_MODEL_RUNNER\n"),
        (EXPORT + COMMAND, "VLLM_USE_V2_MODEL_RUNNER=0 \\\n  " + COMMAND),
    ],
    ids=["export", "export-quoted", "prefix", "assign-then-export", "prefix-own-line"],
)
def test_openrlhf_direct_launch_runner_variable_reaches_the_engines(tmp_path: Path, old: str, new: str) -> None:
    root = tree(tmp_path)
    edit(root / LAUNCH, old, new)
    assert findings(root) == REMOVED


def test_openrlhf_job_runtime_env_runner_variable_reaches_the_engines(tmp_path: Path) -> None:
    root = tree(tmp_path)
    job = 'ray job submit --address=http://127.0.0.1:8265 \\\n   --runtime-env-json=\'{"env_vars": {"VLLM_USE_V2_MODEL_RUNNER": "0"}}\' \\\n   -- '
    edit(root / LAUNCH, EXPORT + COMMAND, job + COMMAND)
    assert findings(root) == {("RPL206", LAUNCH, 3)}  # the runtime env's own line


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (EXPORT, 'export VLLM_USE_V2_MODEL_RUNNER="$RUNNER"\n'),
        (EXPORT, 'export VLLM_USE_V2_MODEL_RUNNER="${RUNNER:-1}"\n'),
        (EXPORT, "export VLLM_USE_V2_MODEL_RUNNER=1\n"),  # 1 is harmless where the mask is not known on
        (ENGINES, "   --vllm.num_engines 0 \\\n"),
        (ENGINES, ""),
        (EXPORT + COMMAND, EXPORT + "ray job submit --address=http://127.0.0.1:8265 -- " + COMMAND),
    ],
    ids=["from-outside", "default-from-outside", "one-without-mask", "no-engines", "engines-not-asked", "job-not-given-export"],
)
def test_openrlhf_runner_variable_not_reaching_or_not_known_is_silent(tmp_path: Path, old: str, new: str) -> None:
    root = tree(tmp_path)
    edit(root / LAUNCH, old, new)
    assert findings(root) == set()


def test_openrlhf_upstream_tree_direct_launch_export_is_judged_too(tmp_path: Path) -> None:
    """Without the fork's files (upstream OpenRLHF), the script's export still reaches its engines."""
    root = tree(tmp_path)
    for name in ("openrlhf/trainer/ray/vllm_engine.py", "openrlhf/trainer/ppo_utils/samples_generator.py", "openrlhf/cli/train_ppo_ray.py"):
        (root / name).unlink()
    assert findings(root) == REMOVED
