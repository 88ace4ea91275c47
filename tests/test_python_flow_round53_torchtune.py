"""What round 53's torchtune async GRPO cases (tests/data/python_flow/h53_torchtune_async_grpo_*)
made the value flow follow so far: `self.cfg` a setup method stores from its parameter
(`recipe = RayGRPORecipe()`, `recipe.setup(cfg)`), read in another method that hands it to the Ray
actors it makes (`ray.remote(...)(SyncLLMCollector).options(...).remote(cfg=self.cfg, ...)`),
whose `__init__` builds `LLM(**self.cfg.inference.get("engine_args", {}))`. The setup method is
read with the arguments of its one call; none, or two, leave the attribute unknown."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from replaylint.cli.main import main

CONFIG = "inference:\n  engine_args:\n    max_model_len: 2048\n    return_sampling_mask: true\nMODE"

RECIPE = """import hydra
import ray
from vllm import LLM


class Collector:
    def __init__(self, cfg, llm):
        self.cfg = cfg
        self.engine_args = self.cfg.inference.get("engine_args", {})
        self.server = LLM(model=llm, enforce_eager=True, **self.engine_args)


class Recipe:
    def setup(self, cfg):
        self.cfg = cfg
        self.workers = self._create_data_collectors()

    def _create_data_collectors(self):
        collectors = []
        for i in range(4):
            collector = (
                ray.remote(num_cpus=0, num_gpus=1)(Collector)
                .options(max_concurrency=5)
                .remote(cfg=self.cfg, llm="/tmp/Qwen2.5-3B")
            )
            collectors.append(collector)
        return collectors


@hydra.main(config_path="conf", config_name="grpo")
def recipe_main(cfg):
    recipe = Recipe()
    CALLS


if __name__ == "__main__":
    recipe_main()
"""


def check(tmp_path: Path, calls: str = "recipe.setup(cfg)", mode: str = "") -> list[tuple[str, int, str]]:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "grpo.yaml").write_text(CONFIG.replace("MODE", mode))
    (tmp_path / "recipe.py").write_text(RECIPE.replace("CALLS", calls))
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tmp_path)])
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in json.loads(out.getvalue()))


def test_config_stored_by_a_setup_method_reaches_the_actor_engine(tmp_path: Path) -> None:
    assert check(tmp_path) == [("grpo.yaml", 4, "RPL003")]


def test_the_mode_beside_the_mask_keeps_it_clean(tmp_path: Path) -> None:
    assert check(tmp_path, mode="    logprobs_mode: processed_logprobs\n") == []


def test_the_setup_call_spelt_with_a_keyword_is_read_too(tmp_path: Path) -> None:
    assert check(tmp_path, calls="recipe.setup(cfg=cfg)") == [("grpo.yaml", 4, "RPL003")]


def test_two_setup_calls_leave_the_stored_config_unknown(tmp_path: Path) -> None:
    # the second call may store another config: the engine's keywords stay open, so nothing is said
    assert check(tmp_path, calls="recipe.setup(cfg)\n    recipe.setup(other_config())") == []


def test_a_setup_method_never_called_leaves_it_unknown(tmp_path: Path) -> None:
    assert check(tmp_path, calls="recipe.run()") == []
