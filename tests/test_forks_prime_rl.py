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

from replaylint.cli.main import main

TREES = Path(__file__).parent / "data" / "forks" / "prime_rl"
SERVER = "src/prime_rl/inference/server.py"
CONFIG = "packages/prime-rl-configs/src/prime_rl/configs/inference.py"


def findings(root: Path) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(root)])
    return json.loads(out.getvalue())


def where(item: dict, root: Path) -> tuple[str, str, int]:
    return item["code"], Path(item["filename"]).resolve().relative_to(root.resolve()).as_posix(), item["location"]["row"]


def test_the_trees_setdefault_of_model_runner_v1_is_refused_at_its_line() -> None:
    root = TREES / "upstream"
    [item] = findings(root)
    assert where(item, root) == ("RPL206", SERVER, 17)
    assert "the forked prime-rl's server.py:17" in item["message"]


def test_an_env_vars_value_wins_over_the_trees_setdefault() -> None:
    assert findings(TREES / "upstream_env_vars_v2") == []


def test_a_tree_whose_server_sets_no_runner_is_clean() -> None:
    assert findings(TREES / "runner_removed") == []


def test_the_trees_logprobs_default_decides() -> None:
    root = TREES / "logprobs_raw"
    [item] = findings(root)
    assert where(item, root) == ("RPL003", CONFIG, 613)
    assert "the forked prime-rl's inference.py:613" in item["message"]


def test_without_the_package_the_built_in_editions_decide(tmp_path: Path) -> None:
    shutil.copytree(TREES / "runner_removed" / "configs", tmp_path / "configs")
    with_fork = findings(TREES / "upstream")
    assert with_fork and findings(tmp_path) == []  # no pin: main and sampling-mask disagree on the runner


def test_a_server_module_that_does_not_parse_sets_nothing(tmp_path: Path) -> None:
    """A fork's server.py CPython cannot parse is not read (nothing of it is run): its runner
    line decides nothing, and the file itself is reported as unparsable, not as RPL206."""
    shutil.copytree(TREES / "upstream", tmp_path / "tree")
    server = tmp_path / "tree" / SERVER
    server.write_text(server.read_text().replace("def setup_vllm_env(config: InferenceConfig):", "def setup_vllm_env(config:"))
    assert {item["code"] for item in findings(tmp_path / "tree")} <= {"RPL900"}


def test_a_field_default_of_the_trees_vllm_config_turns_the_mask_on(tmp_path: Path) -> None:
    """`return_sampling_mask: bool = True` on the fork's `VllmConfig`: every server has the mask,
    and prime-rl main's train request (`extra_body.top_k` -1) is refused, at the field's line."""
    shutil.copytree(TREES / "runner_removed", tmp_path / "tree")
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
