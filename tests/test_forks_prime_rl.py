"""prime-rl forks read from their own source (issue 27, item 4): where the checked tree holds
prime-rl's package (`src/prime_rl/inference/server.py`, `packages/prime-rl-configs/.../inference.py`),
its `setup_vllm_env` writes and its `to_namespace` default decide an rl.toml's server, not the
built-in edition. Trees in tests/data/forks/prime_rl/ are prime-rl @ 559b447's own files (server.py
whole, configs/inference.py whole) with the edits named by each folder, and one rl.toml with the mask
(`[inference.vllm] return_sampling_mask = true`) and a train `top_k`."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

from forks_trees import materialize

from replaylint.cli.main import main

TREES = Path(__file__).parent / "data" / "forks" / "prime_rl"
SERVER = "src/prime_rl/inference/server.py"
CONFIG = "packages/prime-rl-configs/src/prime_rl/configs/inference.py"


def tree(name: str, target: Path) -> Path:
    """The tree of tests/data/forks/prime_rl/NAME (its base and its edits), in `target`."""
    return materialize(TREES / name, target / name)


def findings(root: Path) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(root)])
    return json.loads(out.getvalue())


def where(item: dict, root: Path) -> tuple[str, str, int]:
    return item["code"], Path(item["filename"]).resolve().relative_to(root.resolve()).as_posix(), item["location"]["row"]


def test_the_trees_setdefault_of_model_runner_v1_is_refused_at_its_line(tmp_path: Path) -> None:
    root = tree("upstream", tmp_path)
    [item] = findings(root)
    assert where(item, root) == ("RPL206", SERVER, 17)
    assert "the forked prime-rl's server.py:17" in item["message"]


def test_an_env_vars_value_wins_over_the_trees_setdefault(tmp_path: Path) -> None:
    assert findings(tree("upstream_env_vars_v2", tmp_path)) == []


def test_a_tree_whose_server_sets_no_runner_is_clean(tmp_path: Path) -> None:
    assert findings(tree("runner_removed", tmp_path)) == []


def test_the_trees_logprobs_default_decides(tmp_path: Path) -> None:
    root = tree("logprobs_raw", tmp_path)
    [item] = findings(root)
    assert where(item, root) == ("RPL003", CONFIG, 613)
    assert "the forked prime-rl's inference.py:613" in item["message"]


def test_without_the_package_the_built_in_editions_decide(tmp_path: Path) -> None:
    shutil.copytree(TREES / "runner_removed" / "configs", tmp_path / "plain" / "configs")
    with_fork = findings(tree("upstream", tmp_path))
    assert with_fork and findings(tmp_path / "plain") == []  # no pin: main and sampling-mask disagree on the runner


def test_a_server_module_that_does_not_parse_sets_nothing(tmp_path: Path) -> None:
    """A fork's server.py CPython cannot parse is not read (nothing of it is run): its runner
    line decides nothing, and the file itself is reported as unparsable, not as RPL206."""
    materialize(TREES / "upstream", tmp_path / "tree")
    server = tmp_path / "tree" / SERVER
    server.write_text(server.read_text().replace("def setup_vllm_env(config: InferenceConfig):", "def setup_vllm_env(config:"))
    assert {item["code"] for item in findings(tmp_path / "tree")} <= {"RPL900"}


def test_a_field_default_of_the_trees_vllm_config_turns_the_mask_on(tmp_path: Path) -> None:
    """`return_sampling_mask: bool = True` on the fork's `VllmConfig`: every server has the mask,
    and prime-rl main's train request (`extra_body.top_k` -1) is refused, at the field's line."""
    materialize(TREES / "runner_removed", tmp_path / "tree")
    config = tmp_path / "tree" / CONFIG
    anchor = '    """HF model name or local path."""\n'
    config.write_text(config.read_text().replace(anchor, anchor + "\n    return_sampling_mask: bool = True\n", 1))
    rl = tmp_path / "tree" / "configs" / "rl.toml"
    rl.write_text(
        rl.read_text()
        .replace("[inference.vllm]\nreturn_sampling_mask = true\n", "")
        .replace("[orchestrator.train.source.sampling.extra_body]\ntop_k = 20\n", "")
    )
    line = config.read_text().splitlines().index("    return_sampling_mask: bool = True") + 1
    assert [where(item, tmp_path / "tree") for item in findings(tmp_path / "tree")] == [("RPL102", CONFIG, line)]


ORCHESTRATOR = "packages/prime-rl-configs/src/prime_rl/configs/orchestrator.py"
# prime-rl @ 559b447 configs/orchestrator.py, the two parts the train requests take their defaults from
ORCHESTRATOR_TEXT = '''from typing import Any

from pydantic import Field, model_validator


class TrainSamplingConfig(BaseConfig):
    temperature: float = Field(1.0, ge=0, le=2.0)
    """Sampling temperature."""

    extra_body: dict[str, Any] = {}


class OrchestratorConfig(BaseConfig):
    @model_validator(mode="after")
    def resolve_env_config(self):
        """Set vLLM sampling defaults on each train env from top-level fields."""
        for env in self.train.source:
            assert env.algo is not None
            if env.algo.sampling.source == "policy":
                env.sampling.extra_body.setdefault("top_k", -1)
                env.sampling.extra_body.setdefault("min_p", 0.0)
        return self
'''


def _tree(tmp_path: Path, orchestrator: str | None = None, top_k: bool = True) -> Path:
    """runner_removed's tree, with the fork's orchestrator.py and without the rl.toml's train top_k."""
    root = tmp_path / "tree"
    materialize(TREES / "runner_removed", root)
    if orchestrator is not None:
        (root / ORCHESTRATOR).write_text(orchestrator)
    if not top_k:
        rl = root / "configs" / "rl.toml"
        rl.write_text(rl.read_text().replace("[orchestrator.train.source.sampling.extra_body]\ntop_k = 20\n", ""))
    return root


def _mask_line(root: Path) -> int:
    return (root / "configs" / "rl.toml").read_text().splitlines().index("return_sampling_mask = true") + 1


def test_the_forks_orchestrator_top_k_default_decides_the_train_requests(tmp_path: Path) -> None:
    """The mask with no train `top_k`: prime-rl's `setdefault("top_k", -1)` is refused at the
    fork's line; a fork that sets 64 there is clean; one without the line sends no `top_k`
    (the model's generation config decides: open-ended, nothing reported)."""
    root = _tree(tmp_path / "a", ORCHESTRATOR_TEXT, top_k=False)
    line = ORCHESTRATOR_TEXT.splitlines().index('                env.sampling.extra_body.setdefault("top_k", -1)') + 1
    [item] = findings(root)
    assert where(item, root) == ("RPL102", "configs/rl.toml", _mask_line(root))  # a framework default: at the mask
    assert f"the forked prime-rl's orchestrator.py:{line}" in item["message"]
    assert findings(_tree(tmp_path / "b", ORCHESTRATOR_TEXT.replace('"top_k", -1', '"top_k", 64'), top_k=False)) == []
    without = ORCHESTRATOR_TEXT.replace('                env.sampling.extra_body.setdefault("top_k", -1)\n', "")
    assert findings(_tree(tmp_path / "c", without, top_k=False)) == []


def test_the_forks_train_temperature_default_zero_is_a_greedy_request(tmp_path: Path) -> None:
    root = _tree(tmp_path, ORCHESTRATOR_TEXT.replace("Field(1.0, ge=0", "Field(0.0, ge=0"))
    [item] = findings(root)
    assert where(item, root) == ("RPL101", "configs/rl.toml", _mask_line(root))
    assert "the forked prime-rl's orchestrator.py:7" in item["message"]


def _keyed(tmp_path: Path, default: str, toml: str) -> Path:
    """A fork whose `InferenceConfig` has a key of its own that `to_namespace` turns into the mask."""
    root = _tree(tmp_path, top_k=False)
    config = root / CONFIG
    text = config.read_text()
    text = text.replace("    use_deep_gemm: bool = False\n", f"    enable_replay: bool = {default}\n\n    use_deep_gemm: bool = False\n", 1)
    anchor = '        if not hasattr(namespace, "logprobs_mode"):\n'
    text = text.replace(anchor, "        if self.enable_replay:\n            namespace.return_sampling_mask = True\n\n" + anchor, 1)
    config.write_text(text)
    rl = root / "configs" / "rl.toml"
    rl.write_text(
        rl.read_text().replace("[inference.vllm]\nreturn_sampling_mask = true\n", "").replace("[inference]\n", "[inference]\n" + toml)
    )
    return root


def test_a_key_of_the_forks_own_turns_the_mask_on(tmp_path: Path) -> None:
    """`if self.enable_replay: namespace.return_sampling_mask = True` in the fork's
    `to_namespace`: `[inference] enable_replay = true` asks for the mask, and prime-rl's train
    request (`extra_body.top_k` -1) is refused; false, or a default of False unwritten, is clean;
    a default of True turns the mask on from the field's line."""
    root = _keyed(tmp_path / "a", "False", "enable_replay = true\n")
    assert {item["code"] for item in findings(root)} == {"RPL102"}
    assert findings(_keyed(tmp_path / "b", "False", "enable_replay = false\n")) == []
    assert findings(_keyed(tmp_path / "c", "False", "")) == []
    root = _keyed(tmp_path / "d", "True", "")
    line = (root / CONFIG).read_text().splitlines().index("    enable_replay: bool = True") + 1
    assert [where(item, root) for item in findings(root)] == [("RPL102", CONFIG, line)]


def test_a_fork_without_the_logprobs_default_leaves_vllms_raw_logprobs(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    config = root / CONFIG
    config.write_text(
        config.read_text().replace(
            '        if not hasattr(namespace, "logprobs_mode"):\n            namespace.logprobs_mode = "processed_logprobs"\n', ""
        )
    )
    assert [item["code"] for item in findings(root)] == ["RPL003"]
