"""A finding that rests on a framework's default names the file and line that write it when that file is in
the checked tree (a fork's verl rollout.yaml, a fork's SkyRL config.py), whole in the message's quote; a
default of an edition (no fork in the tree) still names the release it was read from."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from forks_trees import in_repository
from test_forks_heldout12 import CORPUS
from test_forks_round2_readers import edit

from replaylint.cli.main import main

VERL_CASE = "verl_launch_server_mask_literal_val_kwargs_greedy_default"
VERL_LAUNCH = "examples/grpo_trainer/run_qwen2_5_3b_grpo_replay.sh"
SKYRL_CASE = "skyrl_engine_config_field_threaded_eval_top_k_default"
SKYRL_LAUNCH = "examples/train/gsm8k/run_gsm8k_replay.sh"
CAVEAT = " in a request to a replay engine (unless the script's arguments set it)"


def messages(root: Path) -> list[tuple[str, str, int, str]]:
    """(code, path in the tree, line, message) of each finding, as `replaylint check` reports it for vLLM 0.34.0."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(root)])
    return sorted(
        (item["code"], Path(item["filename"]).resolve().relative_to(root.resolve()).as_posix(), item["location"]["row"], item["message"])
        for item in json.loads(out.getvalue())
    )


def test_a_verl_forks_validation_default_names_its_rollout_yaml_line(tmp_path: Path) -> None:
    root = in_repository(CORPUS / VERL_CASE, tmp_path / "verl")
    [(code, path, line, message)] = messages(root)
    assert (code, path, line) == ("RPL101", "verl/workers/rollout/vllm_rollout/vllm_async_server.py", 279)
    assert message.startswith("`rollout.val_kwargs.temperature=0 (verl's default, verl/trainer/config/rollout/rollout.yaml:145)`" + CAVEAT)


def test_a_verl_forks_training_default_names_its_line_too(tmp_path: Path) -> None:
    root = in_repository(CORPUS / VERL_CASE, tmp_path / "verl")
    edit(root / VERL_LAUNCH, "    actor_rollout_ref.rollout.top_k=50 \\\n", "")
    found = [m for _, _, _, m in messages(root)]
    expected = "`actor_rollout_ref.rollout.top_k=-1 (verl's default, verl/trainer/config/rollout/rollout.yaml:14)`" + CAVEAT
    assert any(m.startswith(expected) for m in found), found


def test_a_skyrl_forks_field_default_names_its_config_line(tmp_path: Path) -> None:
    root = in_repository(CORPUS / SKYRL_CASE, tmp_path / "skyrl")
    [(code, path, line, message)] = messages(root)
    assert (code, path, line) == ("RPL102", SKYRL_LAUNCH, 20)
    assert message.startswith("`eval_sampling_params.top_k=-1 (SkyRL's default, skyrl/train/config/config.py:1011)`" + CAVEAT)


def test_a_skyrl_forks_unset_evaluation_names_the_configs_sampling_params_call(tmp_path: Path) -> None:
    """Unset, eval requests are the config's `SamplingParams(temperature=0.0, ...)` (config.py:1284 in the fork), over the
    field defaults (`top_k: int = -1`, config.py:1011)."""
    root = in_repository(CORPUS / SKYRL_CASE, tmp_path / "skyrl")
    edit(root / SKYRL_LAUNCH, "  generator.eval_sampling_params.temperature=0.6 \\\n", "")
    found = {m.split("`")[1] for _, _, _, m in messages(root)}
    assert found == {
        "eval_sampling_params.temperature=0.0 (SkyRL's default, skyrl/train/config/config.py:1284)",
        "eval_sampling_params.top_k=-1 (SkyRL's default, skyrl/train/config/config.py:1011)",
    }


def test_an_editions_default_still_names_its_release(tmp_path: Path) -> None:
    """The same launch without verl's files in the tree: verl 0.9.1's defaults, written nowhere here."""
    script = CORPUS / VERL_CASE / VERL_LAUNCH
    (tmp_path / "run.sh").write_text(
        script.read_text().replace(
            "trainer.test_freq=5", "trainer.test_freq=5 +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true"
        )
    )
    (tmp_path / ".git").mkdir()
    [(code, _, _, message)] = messages(tmp_path)
    assert code == "RPL101" and message.startswith("`rollout.val_kwargs.temperature=0 (verl 0.9.1's default)`" + CAVEAT)
