"""What rounds 17 and 18 of the held-out forks taught the OpenRLHF, open-instruct and prime-rl fork readers
(tests/test_forks_heldout17.py, tests/test_forks_heldout18.py), and their precision: each test takes a held-out
tree, checks what it reports, and changes it so that the value may not reach vLLM, or does, or reaches it
another way.

prime-rl: a later line of `setup_vllm_env` that may remove the variable it pinned (`os.environ.pop(NAME, None)`,
`del os.environ[NAME]`, under a condition or not) leaves the variable's value unknown: no finding rests on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout18 import CORPUS as CORPUS18
from test_forks_round2_readers import edit

PRIME_POP_CASE = "prime_config_field_mask_pops_v1_pin_clean"
PRIME_SERVER = "src/prime_rl/inference/server.py"
PRIME_POP = '        os.environ.pop("VLLM_USE_V2_MODEL_RUNNER", None)'
PRIME_PIN = '    os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")'


@pytest.mark.parametrize(
    "removal",
    [
        PRIME_POP,
        '        del os.environ["VLLM_USE_V2_MODEL_RUNNER"]',
        '        os.environ.pop("VLLM_USE_V2_MODEL_RUNNER")',
    ],
    ids=["pop-default", "del", "pop"],
)
def test_prime_pin_removed_by_a_later_line_is_not_reported(tmp_path: Path, removal: str) -> None:
    root = in_repository(CORPUS18 / PRIME_POP_CASE, tmp_path / PRIME_POP_CASE)
    edit(root / PRIME_SERVER, PRIME_POP, removal)
    assert findings(root) == set()


def test_prime_pin_removed_unconditionally_is_not_reported(tmp_path: Path) -> None:
    root = in_repository(CORPUS18 / PRIME_POP_CASE, tmp_path / PRIME_POP_CASE)
    edit(root / PRIME_SERVER, "    if config.vllm.return_sampling_mask:\n" + PRIME_POP, PRIME_POP[4:])
    assert findings(root) == set()


@pytest.mark.parametrize(
    "removal",
    [
        "",  # the pin kept: vLLM 0.34.0 refuses the variable
        '        os.environ.pop("VLLM_ENFORCE_STRICT_TOOL_CALLING", None)',  # another variable removed
        '        print(os.environ.pop("VLLM_USE_V2_MODEL_RUNNER_X", None))',
    ],
    ids=["kept", "other-variable", "other-name"],
)
def test_prime_pin_not_removed_is_reported(tmp_path: Path, removal: str) -> None:
    root = in_repository(CORPUS18 / PRIME_POP_CASE, tmp_path / PRIME_POP_CASE)
    edit(root / PRIME_SERVER, PRIME_POP, removal or "        pass")
    assert findings(root) == {("RPL206", PRIME_SERVER, 17)}


def test_prime_pin_written_after_the_removal_is_reported(tmp_path: Path) -> None:
    root = in_repository(CORPUS18 / PRIME_POP_CASE, tmp_path / PRIME_POP_CASE)
    edit(root / PRIME_SERVER, PRIME_POP, PRIME_POP + "\n" + PRIME_PIN)
    assert findings(root) == {("RPL206", PRIME_SERVER, 21)}
