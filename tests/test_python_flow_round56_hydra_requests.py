"""What held-out round 56 (h56_ragen_agent_proxy_val_kwargs_top_k_minus_one) made the value flow follow: the
config a `@hydra.main(...)` entry (or `compose(...)`) hands over, composed with its `defaults:` list as Hydra
composes it (RAGEN's config/base.yaml: `defaults: [ppo_trainer]`, verl's ppo_trainer.yaml beside it): a key the
base file keeps (`val_kwargs.top_k: -1`) reaches the request, and a finding points at that file's line; a key
the primary file writes wins unless its list puts `_self_` first. A list the reader cannot compose (a config
group, a file the folder does not hold, a `# @package` of its own) leaves the config open, as before."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from replaylint.cli.main import main


def run(tree: Path) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tree)])
    return json.loads(out.getvalue())


def check(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return sorted((str(Path(f["filename"]).relative_to(tmp_path)), f["location"]["row"], f["code"]) for f in run(tmp_path))


PROGRAM = """import hydra
from vllm import LLM, SamplingParams


@hydra.main(version_base=None, config_path="../conf", config_name="base")
def main(config):
    ro = config.rollout
    llm = LLM(model=config.model_path, max_model_len=ro.max_model_len, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    params = SamplingParams(max_tokens=64, temperature=ro.val_kwargs.temperature, top_k=ro.val_kwargs.top_k)
    llm.generate(["Your move:"], sampling_params=params)


if __name__ == "__main__":
    main()
"""

TRAINER = """rollout:
  name: vllm
  max_model_len: null
  val_kwargs:
    top_k: -1 # -1 for vllm rollout
    temperature: 0
"""

BASE = """defaults:
  - ppo_trainer

model_path: Qwen/Qwen2.5-0.5B-Instruct

rollout:
  max_model_len: 2048
  val_kwargs:
    temperature: 0.5
"""


def test_a_key_the_defaults_file_keeps_reaches_the_request_and_is_reported_there(tmp_path: Path) -> None:
    found = check(tmp_path, {"app/main.py": PROGRAM, "conf/ppo_trainer.yaml": TRAINER, "conf/base.yaml": BASE})
    assert found == [("conf/ppo_trainer.yaml", 5, "RPL102")]


def test_the_primary_files_key_wins_over_its_defaults(tmp_path: Path) -> None:
    base = BASE + "    top_k: 20\n"
    assert check(tmp_path, {"app/main.py": PROGRAM, "conf/ppo_trainer.yaml": TRAINER, "conf/base.yaml": base}) == []


def test_self_first_lets_the_defaults_file_win(tmp_path: Path) -> None:
    base = BASE.replace("  - ppo_trainer\n", "  - _self_\n  - ppo_trainer\n").replace("temperature: 0.5", "temperature: 0.5\n    top_k: 20")
    trainer = TRAINER.replace("temperature: 0", "temperature: 0.7")
    found = check(tmp_path, {"app/main.py": PROGRAM, "conf/ppo_trainer.yaml": trainer, "conf/base.yaml": base})
    assert found == [("conf/ppo_trainer.yaml", 5, "RPL102")]


def test_a_greedy_value_of_the_primary_file_over_a_sampled_default_is_reported_in_the_primary(tmp_path: Path) -> None:
    trainer = TRAINER.replace("top_k: -1", "top_k: 20").replace("temperature: 0", "temperature: 0.7")
    base = BASE.replace("temperature: 0.5", "temperature: 0.0")
    found = check(tmp_path, {"app/main.py": PROGRAM, "conf/ppo_trainer.yaml": trainer, "conf/base.yaml": base})
    assert found == [("conf/base.yaml", 9, "RPL101")]


COMPOSING = """from hydra import compose, initialize
from vllm import LLM, SamplingParams


def evaluate():
    with initialize(version_base=None, config_path="configs"):
        cfg = compose(config_name="eval")
    llm = LLM(model=cfg.model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    sampling = SamplingParams(temperature=cfg.rollout.val_kwargs.temperature, top_k=cfg.rollout.val_kwargs.top_k)
    return llm.generate(["Q:"], sampling)


if __name__ == "__main__":
    evaluate()
"""


def test_compose_reads_a_global_package_default_with_self_written_last(tmp_path: Path) -> None:
    base = "# @package _global_\n" + TRAINER
    primary = BASE.replace("  - ppo_trainer\n", "  - ppo_trainer\n  - _self_\n")
    found = check(tmp_path, {"tools/run_eval.py": COMPOSING, "tools/configs/ppo_trainer.yaml": base, "tools/configs/eval.yaml": primary})
    assert found == [("tools/configs/ppo_trainer.yaml", 6, "RPL102")]


def test_a_config_group_entry_leaves_the_config_open(tmp_path: Path) -> None:
    base = BASE.replace("  - ppo_trainer\n", "  - sampling: vllm\n")
    files = {"app/main.py": PROGRAM, "conf/sampling/vllm.yaml": TRAINER, "conf/base.yaml": base}
    assert check(tmp_path, files) == []


def test_a_default_the_folder_does_not_hold_leaves_the_config_open(tmp_path: Path) -> None:
    assert check(tmp_path, {"app/main.py": PROGRAM, "conf/base.yaml": BASE}) == []


def test_a_default_under_a_package_of_its_own_leaves_the_config_open(tmp_path: Path) -> None:
    trainer = "# @package trainer\n" + TRAINER
    assert check(tmp_path, {"app/main.py": PROGRAM, "conf/ppo_trainer.yaml": trainer, "conf/base.yaml": BASE}) == []


def test_omegaconf_load_does_not_compose_the_list(tmp_path: Path) -> None:
    program = PROGRAM.replace("import hydra\n", "from omegaconf import OmegaConf\n").replace(
        '@hydra.main(version_base=None, config_path="../conf", config_name="base")\ndef main(config):\n',
        'def main():\n    config = OmegaConf.load("conf/base.yaml")\n',
    )
    assert check(tmp_path, {"app/main.py": program, "conf/ppo_trainer.yaml": TRAINER, "conf/base.yaml": BASE}) == []
