"""What round 22 of the held-out forks taught the OpenRLHF fork reader (tests/test_forks_heldout22.py), and its
precision: each test takes the round-22 tree, checks what it reports, and changes it so that the mask may not reach
vLLM, or does, or reaches it another way: the finding then goes (or stays) as vLLM would have it.

OpenRLHF: a fork's write under create_vllm_engines' `if logprobs_mode:` (`actor_kwargs["return_sampling_mask"] =
True` beside OpenRLHF's own logprobs keys) holds when the tree's train_ppo_ray.py passes that parameter as a choice
decided by a switch of its parser (`"processed_logprobs" if args.algo.advantage.is_correction_enable else None`, by
position or keyword) and the launch gives the switch; it does not hold when the launch leaves the switch out. A
caller that passes anything else, a fork that assigns `logprobs_mode` itself first, a launch whose words are not
all known, keep the mask unknown. With the mask on, OpenRLHF's requests (`top_k=generate_kwargs.get("top_k", -1)`,
samples_generator.py) send top_k -1: RPL102 at the line that turns the mask on."""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout22 import CORPUS
from test_forks_round2_readers import edit

CASE = "openrlhf_mask_with_correction_requests_top_k_default"
ENGINES = "openrlhf/trainer/ray/vllm_engine.py"
CLI = "openrlhf/cli/train_ppo_ray.py"
SAMPLES = "openrlhf/trainer/ppo_utils/samples_generator.py"
LAUNCH = "examples/scripts/train_grpo_ray_hybrid_engine_replay.sh"
MASK = '            actor_kwargs["return_sampling_mask"] = True\n'
PASSED = '            "processed_logprobs" if args.algo.advantage.is_correction_enable else None,\n'
FLAG = "   --algo.advantage.is_correction_enable \\\n"
TOP_K_DEFAULT = {("RPL102", ENGINES, 298)}


def tree(tmp_path: Path) -> Path:
    return in_repository(CORPUS / CASE, tmp_path / CASE)


def test_the_correction_switch_turns_on_the_mask_written_under_its_if(tmp_path: Path) -> None:
    assert findings(tree(tmp_path)) == TOP_K_DEFAULT


ASSERTED = '            ), "vLLM > 0.10.0 is required for logprobs_mode"\n'


@pytest.mark.parametrize(
    ("edits", "line"),
    [
        ([(CLI, PASSED, PASSED.replace('"processed', 'logprobs_mode="processed'))], 298),  # passed by keyword
        ([(ENGINES, MASK, '            actor_kwargs.update({"return_sampling_mask": True})\n')], 298),
        ([(ENGINES, MASK, "            actor_kwargs.update(return_sampling_mask=True)\n")], 298),
        ([(ENGINES, MASK, ""), (ENGINES, ASSERTED, ASSERTED + "        if logprobs_mode:\n" + MASK)], 302),  # an `if` of its own
    ],
    ids=["keyword", "update-dict", "update-keywords", "own-if-block"],
)
def test_other_spellings_of_the_mask_under_the_correction(tmp_path: Path, edits: list[tuple[str, str, str]], line: int) -> None:
    root = tree(tmp_path)
    for path, old, new in edits:
        edit(root / path, old, new)
    assert findings(root) == {("RPL102", ENGINES, line)}


def test_a_bounded_top_k_in_the_requests_is_clean(tmp_path: Path) -> None:
    root = tree(tmp_path)
    edit(root / SAMPLES, 'top_k=generate_kwargs.get("top_k", -1)', 'top_k=generate_kwargs.get("top_k", 20)')
    assert findings(root) == set()


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (LAUNCH, FLAG, ""),  # the switch left out: the caller passes None, the block is skipped
        (CLI, PASSED, '            os.environ.get("OPENRLHF_LOGPROBS_MODE"),\n'),  # from where it runs: not known
        (CLI, PASSED, "            args.vllm.logprobs_mode,\n"),  # no switch of the parser: not read
        (
            ENGINES,
            "        if logprobs_mode:\n",
            '        logprobs_mode = os.environ.get("LOGPROBS_MODE", logprobs_mode)\n        if logprobs_mode:\n',
        ),
        (LAUNCH, FLAG, FLAG + "   $EXTRA_ARGS \\\n"),  # words from outside the tree
    ],
    ids=["switch-off", "caller-reads-environment", "caller-passes-an-option", "fork-rebinds-it", "words-from-outside"],
)
def test_a_correction_off_or_not_known_turns_nothing_on(tmp_path: Path, path: str, old: str, new: str) -> None:
    root = tree(tmp_path)
    edit(root / path, old, new)
    assert findings(root) == set()
