"""What round 19 of the held-out forks taught the shell reader and the prime-rl reader, and the SkyRL override
reading it confirmed (tests/test_forks_heldout19.py), and their precision: each test takes a held-out tree, checks what it reports,
and changes it so that the value may not reach vLLM, or does, or reaches it another way.

Shell: a script that sources a file of the tree (`source "$(dirname "$0")/common.sh"`, `. ./common.sh`) reads
it in its own shell: the variables it exports reach the launches after it, at their line in that file; what it
leaves unknown (an export under a test not decided here) stays unknown.
prime-rl: a TOML checked on its own leaves its findings in the fork's source (server.py's `setdefault` of the
runner variable) to the tree's launches that read it, whose environment decides; with no launch reading it,
they stay its own. Its findings in the TOML itself stay its own either way."""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout19 import CORPUS
from test_forks_round2_readers import edit

PRIME_CASE = "prime_common_sh_keeps_v1_pin_away_clean"
PRIME_SERVER = ("RPL206", "src/prime_rl/inference/server.py", 17)
COMMON = "scripts/replay/common.sh"
RUN = "scripts/replay/run.sh"
SOURCE_LINE = 'source "$(dirname "$0")/common.sh"'
EXPORT = "export VLLM_USE_V2_MODEL_RUNNER=1"


def prime_tree(tmp_path: Path) -> Path:
    return in_repository(CORPUS / PRIME_CASE, tmp_path / PRIME_CASE)


@pytest.mark.parametrize(
    "spelling",
    [SOURCE_LINE, '. "$(dirname "$0")/common.sh"', "source scripts/replay/common.sh", 'source "${BASH_SOURCE%/*}/common.sh"'],
    ids=["source-dirname", "dot-dirname", "source-from-root", "bash-source"],
)
def test_a_sourced_export_keeps_the_pin_away(tmp_path: Path, spelling: str) -> None:
    root = prime_tree(tmp_path)
    edit(root / RUN, SOURCE_LINE, spelling)
    assert findings(root) == set()


def test_a_sourced_zero_is_reported_at_its_export(tmp_path: Path) -> None:
    root = prime_tree(tmp_path)
    edit(root / COMMON, EXPORT, "export VLLM_USE_V2_MODEL_RUNNER=0")
    assert findings(root) == {("RPL206", COMMON, 3)}


def test_a_variable_unset_after_the_source_lets_the_pin_apply(tmp_path: Path) -> None:
    root = prime_tree(tmp_path)
    edit(root / RUN, SOURCE_LINE, SOURCE_LINE + "\nunset VLLM_USE_V2_MODEL_RUNNER")
    assert findings(root) == {PRIME_SERVER}


def test_an_export_the_sourced_file_makes_only_under_a_test_stays_unknown(tmp_path: Path) -> None:
    root = prime_tree(tmp_path)
    edit(root / COMMON, EXPORT, 'if [ -n "${KEEP_V2:-}" ]; then\n  export VLLM_USE_V2_MODEL_RUNNER=0\nfi')
    assert findings(root) == set()


def test_a_sourced_file_without_the_export_lets_the_pin_apply(tmp_path: Path) -> None:
    root = prime_tree(tmp_path)
    edit(root / COMMON, EXPORT, "export OTHER=1")
    assert findings(root) == {PRIME_SERVER}


def test_a_toml_no_script_launches_keeps_the_pin_finding(tmp_path: Path) -> None:
    root = prime_tree(tmp_path)
    (root / RUN).unlink()
    assert findings(root) == {PRIME_SERVER}


def test_the_toml_checked_alone_is_judged_by_the_script_that_sources_the_export(tmp_path: Path) -> None:
    root = prime_tree(tmp_path)
    assert findings(root, root / "configs/replay/math.toml") == set()


def plain_tree(tmp_path: Path, common: str, run_line: str = SOURCE_LINE) -> Path:
    root = tmp_path / "plain"
    (root / ".git").mkdir(parents=True)
    (root / "scripts").mkdir()
    (root / "scripts/common.sh").write_text(f"#!/usr/bin/env bash\nexport HF_HOME=/data/hf\n{common}\n")
    launch = "vllm serve Qwen/Qwen3-0.6B --return-sampling-mask --logprobs-mode processed_logprobs\n"
    (root / "scripts/serve.sh").write_text(f"#!/usr/bin/env bash\nset -euo pipefail\n{run_line}\n{launch}")
    return root


@pytest.mark.parametrize("value", ["0", "1"])  # 0 refused, 1 redundant (no framework pin to keep away)
def test_a_plain_vllm_launch_reads_the_sourced_variable_at_its_export(tmp_path: Path, value: str) -> None:
    root = plain_tree(tmp_path, f"export VLLM_USE_V2_MODEL_RUNNER={value}")
    assert ("RPL206", "scripts/common.sh", 3) in findings(root)


@pytest.mark.parametrize(
    "common, run_line",
    [
        ('[ -n "${OLD:-}" ] && export VLLM_USE_V2_MODEL_RUNNER=0', SOURCE_LINE),
        ("export VLLM_USE_V2_MODEL_RUNNER=0", "source /etc/replay/common.sh"),
        ("export VLLM_USE_V2_MODEL_RUNNER=0", 'OLD=""\nif [ -n "$OLD" ]; then source "$(dirname "$0")/common.sh"; fi'),
    ],
    ids=["under-a-test", "file-outside-the-tree", "source-not-taken"],
)
def test_a_plain_vllm_launch_without_a_known_sourced_zero_is_silent(tmp_path: Path, common: str, run_line: str) -> None:
    root = plain_tree(tmp_path, common, run_line)
    assert {code for code, _, _ in findings(root)} & {"RPL206"} == set()


SKYRL_CASE = "skyrl_engine_kwargs_default_adaptive_spec_ray_job"
SKYRL_SUBMIT = "examples/train/replay/submit_multinode.sh"
SKYRL_SPEC = "{method:ngram,num_speculative_tokens:4,prompt_lookup_max:4,prompt_lookup_min:2,enable_adaptive_verification:true}"
SKYRL_SPACED = "{method: ngram, num_speculative_tokens: 4, prompt_lookup_max: 4, prompt_lookup_min: 2, enable_adaptive_verification: true}"
SKYRL_JOB = (
    'ray job submit --address="http://127.0.0.1:8265" \\\n'
    """  --runtime-env-json='{"working_dir": ".", "env_vars": {"NCCL_DEBUG": "WARN", "SKYRL_LOG_LEVEL": "INFO"}}' \\\n"""
    "  -- uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \\\n"
)


@pytest.mark.parametrize(
    "spec, expected",
    [(SKYRL_SPEC, set()), (SKYRL_SPACED, {("RPL002", SKYRL_SUBMIT, 16)})],
    ids=["yaml-keys-without-blanks", "yaml-flow-mapping"],
)
def test_skyrl_override_dict_is_read_as_omegaconf_reads_it(tmp_path: Path, spec: str, expected: set) -> None:
    """SkyRL's `OmegaConf.from_cli` reads `{method:ngram,...}` as keys `method:ngram` (vLLM refuses them as unknown
    keywords, no replay rule); `{method: ngram, ...}` is the dict whose adaptive verification vLLM refuses."""
    root = in_repository(CORPUS / SKYRL_CASE, tmp_path / SKYRL_CASE)
    edit(root / SKYRL_SUBMIT, SKYRL_JOB, "uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \\\n")
    edit(root / SKYRL_SUBMIT, SKYRL_SPEC, spec)
    assert findings(root) == expected
