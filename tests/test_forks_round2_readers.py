"""Precision of the fork readers round 2 of the held-out forks added (tests/test_forks_heldout2.py):
what they read only where it is sure. Each test takes a round-2 tree and changes it so that the
value may not reach vLLM: nothing is then reported."""

from __future__ import annotations

from pathlib import Path

from forks_trees import findings, materialize

CORPUS = Path(__file__).parent / "data" / "forks_heldout2"


def tree(case: str, tmp_path: Path) -> Path:
    root = materialize(CORPUS / case, tmp_path / case)
    (root / ".git").mkdir()
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def test_an_environment_write_under_a_condition_is_not_the_engines(tmp_path: Path) -> None:
    root = tree("verl_server_environ_runner_v1", tmp_path)
    assert {code for code, _, _ in findings(root)} == {"RPL206"}
    edit(
        root / "verl/workers/rollout/vllm_rollout/vllm_async_server.py",
        '        os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"\n',
        '        if self.config.get("legacy_runner"):\n            os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"\n',
    )
    assert findings(root) == set()


def test_an_actor_write_under_a_condition_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree("openrlhf_actor_init_update_no_is_correction", tmp_path)
    assert {code for code, _, _ in findings(root)} == {"RPL003"}
    edit(
        root / "openrlhf/trainer/ray/vllm_engine.py",
        "        kwargs.update(return_sampling_mask=True)\n",
        '        if os.environ.get("REPLAY"):\n            kwargs.update(return_sampling_mask=True)\n',
    )
    assert findings(root) == set()


def test_a_launch_that_writes_engine_init_kwargs_is_not_given_the_default(tmp_path: Path) -> None:
    """Whether the command line's keys merge with the field's default or replace it is not read
    here: the default's mask is not assumed."""
    root = tree("skyrl_engine_init_kwargs_default_mask", tmp_path)
    assert {code for code, _, _ in findings(root)} == {"RPL101", "RPL102"}
    edit(
        root / "examples/gsm8k/run_gsm8k.sh",
        "trainer.epochs=20",
        "trainer.epochs=20 generator.inference_engine.engine_init_kwargs.max_num_seqs=64",
    )
    assert findings(root) == set()


def test_a_namespace_attribute_set_under_a_condition_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree("skyrl_namespace_mask_no_logprobs_mode", tmp_path)
    assert "RPL003" in {code for code, _, _ in findings(root)}
    edit(
        root / "skyrl/backends/skyrl_train/inference_servers/utils.py",
        "    args.return_sampling_mask = True\n",
        "    if ie_cfg.enable_replay:\n        args.return_sampling_mask = True\n",
    )
    assert findings(root) == set()
