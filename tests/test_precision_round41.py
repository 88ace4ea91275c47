"""Precision of issue 27, round 41: findings that do not depend on the folder replaylint runs in, nor on
a caller's keys it cannot see.

NeMo-RL: a launch script's relative paths (`--config examples/configs/x.yaml`, `examples/run_grpo.py`'s
default config) resolve beside the script, from the working folder, else from the tree's root (the
repository, or the folder a fork's package sits in), so a script in `examples/scripts/` is a launch
wherever replaylint runs, and the recipe it overrides is judged with its overrides also when the recipe
is named alone; a recipe launched with differing overrides reports only what every launch reports.
The value flow: a `setdefault` into a parameter (`**kwargs`) whose caller may pass the key (one
outside the file, one with keys not read, one that passes it under a condition) is not certain."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout7 import CORPUS as CORPUS7
from test_forks_heldout11 import CORPUS as CORPUS11
from test_forks_round2_readers import edit
from test_python_flow_round10 import check, run

# -- NeMo-RL: the working folder decides nothing ---------------------------------------------------

RECIPE_CASE = "nemo_vllm_cfg_yaml_default_mask_subscript_recipe_top_k_clean"
DEFAULT = "examples/configs/grpo_math_1B.yaml"
RECIPE = "examples/configs/recipes/llm/grpo-qwen3-1.7b-replay.yaml"
SCRIPT = "examples/scripts/run_replay.sh"
UNBOUNDED = {("RPL102", DEFAULT, 373)}  # NeMo-RL's `top_k: null` (-1), the recipe's parent
LAST_WORD = "  cluster.gpus_per_node=8\n"
WHERE = ("root", "elsewhere", "subfolder")


def recipe_tree(tmp_path: Path, override: str | None) -> Path:
    """The fork whose default config turns the mask on, its recipe without `top_k`, launched by a
    script in `examples/scripts/` (root-relative paths) with `override` after its words."""
    root = in_repository(CORPUS7 / RECIPE_CASE, tmp_path / "tree")
    edit(root / RECIPE, "    top_k: 50\n", "")
    (root / SCRIPT).parent.mkdir(parents=True)
    (root / "run_replay.sh").rename(root / SCRIPT)
    if override is not None:
        edit(root / SCRIPT, LAST_WORD, f"  cluster.gpus_per_node=8 \\\n  {override}\n")
    return root


def folder(where: str, root: Path, tmp_path: Path) -> Path:
    place = {"root": root, "elsewhere": tmp_path / "elsewhere", "subfolder": root / "examples" / "scripts"}[where]
    place.mkdir(exist_ok=True)
    return place


def found_from(where: str, root: Path, tmp_path: Path, checked: str | None = None) -> set[tuple[str, str, int]]:
    with contextlib.chdir(folder(where, root, tmp_path)):
        return findings(root, root / checked if checked else None)


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("checked", [None, RECIPE, DEFAULT, SCRIPT], ids=["tree", "recipe-alone", "default-alone", "script-alone"])
def test_nemo_recipe_override_in_a_script_counts_from_any_folder(tmp_path: Path, where: str, checked: str | None) -> None:
    root = recipe_tree(tmp_path, "policy.generation.top_k=20")
    assert found_from(where, root, tmp_path, checked) == set()


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("checked", [None, RECIPE, DEFAULT], ids=["tree", "recipe-alone", "default-alone"])
def test_nemo_recipe_without_the_override_is_found_from_any_folder(tmp_path: Path, where: str, checked: str | None) -> None:
    root = recipe_tree(tmp_path, None)
    assert found_from(where, root, tmp_path, checked) == UNBOUNDED


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize(
    "launch",
    [
        "uv run examples/run_grpo.py \\\n  --config examples/configs/recipes/llm/grpo-qwen3-1.7b-replay.yaml \\\n",
        "uv run python examples/run_grpo.py \\\n  --config=examples/configs/recipes/llm/grpo-qwen3-1.7b-replay.yaml \\\n",
        "python3 examples/run_grpo.py \\\n",  # the script's default config, next to it
    ],
    ids=["uv-run", "uv-run-python-equals", "default-config"],
)
def test_nemo_script_in_a_subfolder_is_a_launch_from_any_folder(tmp_path: Path, where: str, launch: str) -> None:
    root = recipe_tree(tmp_path, "policy.generation.top_k=null")
    text = (root / SCRIPT).read_text()
    start = text.index("uv run examples/run_grpo.py")
    (root / SCRIPT).write_text(text[:start] + launch + text[text.index("  logger.wandb_enabled", start) :])
    line = next(n for n, row in enumerate((root / SCRIPT).read_text().splitlines(), 1) if "top_k=null" in row)
    assert found_from(where, root, tmp_path, SCRIPT) == {("RPL102", SCRIPT, line)}


@pytest.mark.parametrize(("override", "expected"), [("policy.generation.top_k=20", set()), ("logger.wandb_enabled=false", UNBOUNDED)])
def test_nemo_root_is_where_the_forks_package_sits_without_a_repository(tmp_path: Path, override: str, expected: set) -> None:
    root = recipe_tree(tmp_path, override)
    (root / ".git").rmdir()  # `nemo_rl/` marks the root
    with contextlib.chdir(folder("elsewhere", root, tmp_path)):
        assert findings(root) == expected


def test_nemo_root_relative_config_beside_the_script_wins(tmp_path: Path) -> None:
    # A recipe of the same name beside the script is the one read (as before): its `top_k: 50` bounds it.
    root = recipe_tree(tmp_path, None)
    beside = root / "examples" / "scripts" / RECIPE
    beside.parent.mkdir(parents=True)
    beside.write_text((root / RECIPE).read_text().replace("defaults: ../../grpo_math_1B.yaml", "defaults: ../../../../../" + DEFAULT))
    edit(beside, "  generation:\n", "  generation:\n    top_k: 50\n")
    assert found_from("elsewhere", root, tmp_path, SCRIPT) == set()


def test_nemo_recipe_launched_with_differing_overrides_reports_what_every_launch_does(tmp_path: Path) -> None:
    root = recipe_tree(tmp_path, "policy.generation.top_k=20")
    bare = (root / SCRIPT).read_text().replace(" \\\n  policy.generation.top_k=20\n", "\n")
    (root / "examples/scripts/run_bare.sh").write_text(bare)
    for where in WHERE:
        assert found_from(where, root, tmp_path, RECIPE) == set(), where  # one launch bounds top_k
        assert found_from(where, root, tmp_path) == UNBOUNDED, where  # run_bare.sh's own launch does not
    edit(root / SCRIPT, "  policy.generation.top_k=20\n", "  logger.wandb_enabled=false\n")
    assert found_from("elsewhere", root, tmp_path, RECIPE) == UNBOUNDED  # neither does: both report it


SWITCH_CASE = "nemo_yaml_default_mask_on_vllm_kwargs_setdefault_top_k_null"
SWITCH_LAUNCH = "examples/run_grpo_math_replay.sh"


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("policy.generation.vllm_cfg.return_sampling_mask=false", set()),
        ("++policy.generation.vllm_kwargs.return_sampling_mask=false", set()),
        ("cluster.num_nodes=1", {("RPL102", "examples/configs/grpo_math_1B.yaml", 373)}),
    ],
)
@pytest.mark.parametrize("where", ("elsewhere", "subfolder"))
def test_nemo_launch_in_examples_judged_without_running_from_the_root(tmp_path: Path, where: str, word: str, expected: set) -> None:
    root = in_repository(CORPUS11 / SWITCH_CASE, tmp_path / "tree")
    edit(root / SWITCH_LAUNCH, "logger.wandb.name=grpo-math-replay", f"logger.wandb.name=grpo-math-replay \\\n    {word}")
    place = tmp_path / "elsewhere" if where == "elsewhere" else root / "examples"
    place.mkdir(exist_ok=True)
    with contextlib.chdir(place):
        assert findings(root) == expected
        assert findings(root, root / "examples/configs/grpo_math_1B.yaml") == expected


SERVE = "#!/bin/bash\nvllm serve Qwen/Qwen3-8B --enable-scale-out --config configs/replay.yaml\n"
SERVE_CONFIG = "return-sampling-mask: true\nlogprobs-mode: {mode}\n"


@pytest.mark.parametrize(("mode", "expected"), [("raw_logprobs", {("RPL003", "configs/replay.yaml", 2)}), ("processed_logprobs", set())])
def test_vllm_config_named_from_the_repository_root_by_a_script_in_a_subfolder(tmp_path: Path, mode: str, expected: set) -> None:
    root = tmp_path / "repo"
    (root / "scripts").mkdir(parents=True)
    (root / "configs").mkdir()
    (root / ".git").mkdir()
    (root / "scripts/serve.sh").write_text(SERVE)
    (root / "configs/replay.yaml").write_text(SERVE_CONFIG.format(mode=mode))
    with contextlib.chdir(folder("elsewhere", root, tmp_path)):
        assert findings(root, root / "scripts/serve.sh") == expected


# -- the value flow: a setdefault into what a caller passes ---------------------------------------

OPENRLHF_CASE = "openrlhf_actor_init_setdefault_mask_no_correction_flag"
ENGINES = "openrlhf/trainer/ray/vllm_engine.py"
LAUNCH = "examples/scripts/train_grpo_replay_ray.sh"
MASK_DEFAULT = '        kwargs.setdefault("return_sampling_mask", True)\n'
CORRECTION = ("   --train.seed 42\n", "   --train.seed 42 \\\n   --algo.advantage.is_correction_enable\n")


@pytest.mark.parametrize(
    "mode_default",
    ['        kwargs.setdefault("logprobs_mode", "raw_logprobs")\n', "        kwargs.setdefault('logprobs_mode', 'raw_logprobs')\n"],
    ids=["double-quoted", "single-quoted"],
)
def test_openrlhf_actor_setdefault_gives_way_to_the_correction_in_every_check(tmp_path: Path, mode_default: str) -> None:
    root = in_repository(CORPUS11 / OPENRLHF_CASE, tmp_path / "tree")
    edit(root / ENGINES, MASK_DEFAULT, MASK_DEFAULT + mode_default)
    edit(root / LAUNCH, *CORRECTION)
    assert findings(root) == set()
    assert findings(root, root / ENGINES) == set()  # vllm_engine.py checked alone, as pre-commit names it


def test_openrlhf_actor_setdefault_without_the_correction_is_the_fork_readers(tmp_path: Path) -> None:
    root = in_repository(CORPUS11 / OPENRLHF_CASE, tmp_path / "tree")
    edit(root / ENGINES, MASK_DEFAULT, MASK_DEFAULT + '        kwargs.setdefault("logprobs_mode", "raw_logprobs")\n')
    assert findings(root) == {("RPL003", ENGINES, 63)}
    assert findings(root, root / ENGINES) == {("RPL003", ENGINES, 63)}


def test_openrlhf_actor_setdefault_without_a_launch_is_open(tmp_path: Path) -> None:
    # create_vllm_engines' `if logprobs_mode:` reads its caller's argument (train_ppo_ray.py, another file)
    root = in_repository(CORPUS11 / OPENRLHF_CASE, tmp_path / "tree")
    edit(root / ENGINES, MASK_DEFAULT, MASK_DEFAULT + '        kwargs.setdefault("logprobs_mode", "raw_logprobs")\n')
    (root / LAUNCH).unlink()
    assert findings(root) == set()


MAKE = (
    "import json\nimport os\n\nfrom vllm import LLM\n\n\n"
    "def make(**kw):\n"
    "    kw.setdefault('logprobs_mode', 'raw_logprobs')\n"
    "    return LLM('m', return_sampling_mask=True, **kw)\n\n\n"
    "def build():\n"
    "    opts = {'seed': 1}\n"
    "PASSES"
    "    return CALL\n\n\n"
    "llm = build()\n"
)


def made(passes: str, call: str) -> str:
    return MAKE.replace("PASSES", passes).replace("CALL", call)


UNDER_AN_IF = "    if os.environ.get('CORRECT'):\n        opts['logprobs_mode'] = 'processed_logprobs'\n"
ACTOR = (
    "import os\n\nimport ray\nfrom vllm import LLM\n\n\n"
    "@ray.remote\nclass Engine:\n"
    "    def __init__(self, **kwargs):\n"
    "        kwargs.setdefault('logprobs_mode', 'raw_logprobs')\n"
    "        self.llm = LLM('m', return_sampling_mask=True, **kwargs)\n\n\n"
    "def start(correct=False):\n"
    "    opts = {'seed': 1}\n"
    "    if correct:\n        opts['logprobs_mode'] = 'processed_logprobs'\n"
    "    return Engine.options(num_gpus=1).remote(**opts)\n"
)


@pytest.mark.parametrize(
    "files",
    [
        {"make.py": made(UNDER_AN_IF, "make(**opts)")},  # passed under a condition
        {"make.py": made("", "make(**opts, **json.loads(os.environ['EXTRA']))")},  # keys not read
        {"make.py": made(UNDER_AN_IF, "make(**opts)").replace("def make(**kw):", "def make(**kw) -> LLM:")},
        {"engine.py": ACTOR},  # a Ray actor whose starter's argument comes from its callers
    ],
    ids=["under-an-if", "more-keys-not-read", "annotated", "ray-actor"],
)
def test_flow_setdefault_a_caller_may_override_is_open(tmp_path: Path, files: dict[str, str]) -> None:
    assert check(tmp_path, files) == []


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"make.py": made("", "make(**opts)")}, [("make.py", 8, "RPL003")]),  # known whole, without the key
        ({"make.py": made("", "make(seed=2)")}, [("make.py", 8, "RPL003")]),
        ({"make.py": MAKE.split("\n\ndef build")[0] + "\n"}, [("make.py", 8, "RPL003")]),  # no caller: judged as written
        ({"make.py": made("    opts['logprobs_mode'] = 'raw_logprobs'\n", "make(**opts)")}, [("make.py", 14, "RPL003")]),
    ],
    ids=["caller-without-the-key", "keywords", "as-written", "caller-passes-raw"],
)
def test_flow_setdefault_certain_where_every_caller_is_known(tmp_path: Path, files: dict[str, str], expected: list) -> None:
    assert check(tmp_path, files) == expected


# -- the message: an engine built on a branch the defaults do not take ------------------------------

SERVE_PY = (
    "import argparse\n\nfrom vllm import LLM\n\n\n"
    "def main():\n"
    "    parser = argparse.ArgumentParser()\n"
    '    parser.add_argument("--backend", default="vllm")\n'
    "    args = parser.parse_args()\n"
    '    if args.backend == "sglang":\n'
    '        llm = LLM("m", return_sampling_mask=True, logprobs_mode="raw_logprobs")\n'
    "    else:\n"
    '        llm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
    "    return llm\n\n\n"
    'if __name__ == "__main__":\n'
    "    main()\n"
)
CLICK_PY = (
    "import click\nfrom vllm import LLM\n\n\n"
    "@click.command()\n"
    '@click.option("--backend", default="vllm")\n'
    "def main(backend):\n"
    '    if backend == "sglang":\n'
    '        return LLM("m", return_sampling_mask=True, logprobs_mode="raw_logprobs")\n'
    '    return LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n\n\n'
    'if __name__ == "__main__":\n'
    "    main()\n"
)


def swapped(text: str) -> str:
    """The two engines' modes exchanged: the broken engine is the one the default takes."""
    return text.replace('"raw_logprobs"', '"@"').replace('"processed_logprobs"', '"raw_logprobs"').replace('"@"', '"processed_logprobs"')


def messages(tmp_path: Path, name: str, text: str) -> list[tuple[int, str]]:
    (tmp_path / name).write_text(text)
    return [(found["location"]["row"], found["message"]) for found in run(tmp_path)]


@pytest.mark.parametrize(
    ("text", "row", "said"),
    [
        (SERVE_PY, 11, "(when --backend is 'sglang')"),
        (SERVE_PY.replace('args.backend == "sglang"', 'args.backend != "vllm"'), 11, "(when --backend is not 'vllm')"),
        (swapped(SERVE_PY.replace('"sglang"', '"vllm"')), 13, "(when --backend is not 'vllm')"),  # its `else:`
        (CLICK_PY, 9, "(when --backend is 'sglang')"),
        (
            SERVE_PY.replace('"--backend", default="vllm"', '"--legacy", action="store_true"').replace(
                'args.backend == "sglang"', "args.legacy"
            ),
            11,
            "(when `args.legacy` is true)",
        ),
    ],
    ids=["equals", "not-equals", "else-branch", "click", "switch"],
)
def test_engine_on_a_branch_the_default_does_not_take_says_when(tmp_path: Path, text: str, row: int, said: str) -> None:
    ((line, message),) = messages(tmp_path, "serve.py", text)
    assert line == row and message.startswith('`logprobs_mode="raw_logprobs"`') and said in message


@pytest.mark.parametrize(
    "text",
    [
        swapped(SERVE_PY),  # the default's own branch: no condition
        SERVE_PY.replace('default="vllm"', 'default="sglang"'),
        SERVE_PY.replace("import argparse\n", "import argparse\nimport os\n").replace(
            'args.backend == "sglang"', 'os.environ.get("BACKEND") == "sglang"'
        ),
    ],
    ids=["default-branch", "default-is-the-branch", "run-time-test"],
)
def test_engine_on_a_branch_the_default_takes_or_cannot_be_told_says_no_branch(tmp_path: Path, text: str) -> None:
    ((_, message),) = messages(tmp_path, "serve.py", text)
    assert "(when" not in message
