"""Round 16, Open-Reasoner-Zero's shape: `orz/` and `orz/ppo/` are namespace packages (no
`__init__.py`) that a launch script in a folder beside `orz/` (`playground/`) imports by their
dotted name from the tree's root (`from orz.ppo.vllm_utils import create_vllm_engines`): the
modules of the package are read with that script, so the engine an actor of `orz/ppo/` builds
gets the keywords the script passes. A script that does not import the package by that name, a
value from outside the tree, and another library's engine stay silent; a package three levels deep
is not looked for beside its top (`nearby`), but the script that imports it is its known user."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.frontends.python.flow.tree import nearby
from tests.test_python_flow_round10 import check

ORZ_ENGINE = (
    "import ray\n"
    "import vllm\n\n\n"
    "@ray.remote\n"
    "class LLMActor:\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        self.llm = vllm.LLM(*args, **kwargs)\n\n\n"
    "def create_vllm_engines(num_engines, pretrain, **extra):\n"
    "    vllm_engines = []\n"
    "    for i in range(num_engines):\n"
    "        vllm_engines.append(LLMActor.options(num_cpus=1, num_gpus=1).remote(pretrain, seed=i, **extra))\n"
    "    return vllm_engines\n"
)
ORZ_SCRIPT = (
    "{imports}\n\n\n"
    "class PPOExp:\n"
    "    def create_inference_engine(self):\n"
    "        return {call}(2, 'Qwen/Qwen2.5-7B', return_sampling_mask=True, logprobs_mode={mode})\n\n\n"
    "if __name__ == '__main__':\n"
    "    PPOExp().create_inference_engine()\n"
)
SPELLINGS = [
    ("from orz.ppo.vllm_utils import create_vllm_engines", "create_vllm_engines"),
    ("from orz.ppo import vllm_utils", "vllm_utils.create_vllm_engines"),
    ("import os\n\nfrom orz.ppo.vllm_utils import (\n    create_vllm_engines,\n)", "create_vllm_engines"),
]


def orz_tree(imports: str, call: str, mode: str, engine: str = ORZ_ENGINE, package: str = "orz/ppo") -> dict[str, str]:
    return {
        f"{package}/vllm_utils.py": engine,
        f"{package}/trainer.py": "import ray\n",
        "playground/orz_7b_ppo.py": ORZ_SCRIPT.format(imports=imports, call=call, mode=mode),
    }


@pytest.mark.parametrize(("imports", "call"), SPELLINGS)
def test_an_engine_of_a_namespace_package_is_read_with_the_script_that_imports_it_by_its_dotted_name(
    tmp_path: Path, imports: str, call: str
) -> None:
    found = check(tmp_path, orz_tree(imports, call, "'raw_logprobs'"))
    assert found == [("orz_7b_ppo.py", 6 + imports.count("\n"), "RPL003")]


@pytest.mark.parametrize("packages", [(), ("orz/__init__.py",), ("orz/ppo/__init__.py",)])
def test_either_level_may_be_a_regular_package(tmp_path: Path, packages: tuple[str, ...]) -> None:
    files = orz_tree(*SPELLINGS[0], "'raw_logprobs'") | dict.fromkeys(packages, "")
    assert check(tmp_path, files) == [("orz_7b_ppo.py", 6, "RPL003")]


@pytest.mark.parametrize("mode", ["'processed_logprobs'", "os.environ['LOGPROBS_MODE']"])
def test_the_right_mode_or_one_from_outside_the_tree_says_nothing(tmp_path: Path, mode: str) -> None:
    imports = "import os\n\nfrom orz.ppo.vllm_utils import create_vllm_engines"
    assert check(tmp_path, orz_tree(imports, "create_vllm_engines", mode)) == []


def test_another_librarys_engine_in_the_namespace_package_says_nothing(tmp_path: Path) -> None:
    engine = ORZ_ENGINE.replace("import vllm\n", "import sglang\n").replace("vllm.LLM(", "sglang.Engine(")
    assert check(tmp_path, orz_tree(*SPELLINGS[0], "'raw_logprobs'", engine=engine)) == []


def test_a_package_three_namespace_levels_deep_is_read_with_the_script_that_imports_it(tmp_path: Path) -> None:
    imports = "from orz.exps.ppo.vllm_utils import create_vllm_engines"
    files = orz_tree(imports, "create_vllm_engines", "'raw_logprobs'", package="orz/exps/ppo")
    assert check(tmp_path, files) == [("orz_7b_ppo.py", 6, "RPL003")]  # not `nearby` it: the file checked imports it
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert "orz_7b_ppo.py" not in [Path(p).name for p in nearby(str(tmp_path / "orz/exps/ppo/vllm_utils.py"))]


@pytest.mark.parametrize(
    "head",
    [
        "from orzo.ppo.vllm_utils import create_vllm_engines\n",  # another package whose name starts alike
        "from ppo.vllm_utils import create_vllm_engines\n",  # `ppo` from the root is not `orz.ppo`
        "# from orz.ppo.vllm_utils import create_vllm_engines\nimport os\n",  # a comment, not an import
        "from orz.ppox import helpers\n",
    ],
)
def test_a_script_beside_the_package_that_does_not_import_it_by_its_dotted_name_is_not_near_it(tmp_path: Path, head: str) -> None:
    for name, text in {"orz/ppo/vllm_utils.py": ORZ_ENGINE, "orz/ppo/trainer.py": "", "playground/run.py": head}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert [Path(p).name for p in nearby(str(tmp_path / "orz/ppo/vllm_utils.py"))] == ["trainer.py"]


def test_the_script_that_imports_the_package_by_its_dotted_name_is_near_its_modules(tmp_path: Path) -> None:
    for name, text in orz_tree(*SPELLINGS[2], "'raw_logprobs'").items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert [Path(p).name for p in nearby(str(tmp_path / "orz/ppo/vllm_utils.py"))] == ["trainer.py", "orz_7b_ppo.py"]


# A list of Ray actors grown by `append` in a loop, handed to another module's class, whose requests loop over it

ACTORS = (
    "import ray\n"
    "import vllm\n\n\n"
    "@ray.remote\n"
    "class LLMActor:\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        self.llm = vllm.LLM(*args, **kwargs)\n\n"
    "    def generate(self, *args, **kwargs):\n"
    "        return self.llm.generate(*args, **kwargs)\n\n\n"
    "def create_vllm_engines(num_engines, pretrain, **extra):\n"
    "    vllm_engines = []\n"
    "    for i in range(num_engines):\n"
    "        {append}\n"
    "    {after}return vllm_engines\n"
)
APPEND = "vllm_engines.append(LLMActor.options(num_cpus=1, num_gpus=1).remote(pretrain, seed=i, **extra))"
TRAINER = (
    "import ray\n"
    "from vllm import SamplingParams\n\n\n"
    "class RayPPOTrainer:\n"
    "    def __init__(self, cfg, vllm_engines):\n"
    "        self.cfg = cfg\n"
    "        self.vllm_engines = vllm_engines\n\n"
    "    def generate_vllm(self, prompts):\n"
    "        sampling_params = SamplingParams(temperature=1.0, top_k={top_k})\n"
    "{send}"
)
COMPREHENSION = (
    "        return ray.get([engine.generate.remote(prompts, sampling_params=sampling_params) for engine in self.vllm_engines])\n"
)
LOOP = (
    "        refs = []\n"
    "        for engine in self.vllm_engines:\n"
    "            refs.append(engine.generate.remote(prompts, sampling_params=sampling_params))\n"
    "        return ray.get(refs)\n"
)
PLAYGROUND = (
    "from orz.ppo.trainer import RayPPOTrainer\n"
    "from orz.ppo.vllm_utils import create_vllm_engines\n\n\n"
    "class PPOExp:\n"
    "    def __init__(self, cfg):\n"
    "        self.cfg = cfg\n\n"
    "    def run(self):\n"
    "        {engines}\n"
    "        trainer.generate_vllm(['1 + 1 = ?'])\n\n\n"
    "if __name__ == '__main__':\n"
    "    PPOExp({{}}).run()\n"
)
MASKED = "create_vllm_engines(8, 'Qwen/Qwen2.5-7B', return_sampling_mask=True, logprobs_mode='processed_logprobs')"
HANDED = [
    f"trainer = RayPPOTrainer(self.cfg, {MASKED})",
    f"engines = {MASKED}\n        trainer = RayPPOTrainer(self.cfg, engines)",
    f"trainer = RayPPOTrainer(cfg=self.cfg, vllm_engines={MASKED})",
]


def actors_tree(
    engines: str = HANDED[0], send: str = COMPREHENSION, top_k: str = "-1", append: str = APPEND, after: str = ""
) -> dict[str, str]:
    return {
        "orz/ppo/vllm_utils.py": ACTORS.format(append=append, after=after),
        "orz/ppo/trainer.py": TRAINER.format(top_k=top_k, send=send),
        "playground/orz_7b_ppo.py": PLAYGROUND.format(engines=engines),
    }


@pytest.mark.parametrize("send", [COMPREHENSION, LOOP, COMPREHENSION.replace("[engine", "(engine").replace("])", "))")])
@pytest.mark.parametrize("engines", HANDED)
def test_a_request_looped_over_a_list_of_actors_grown_by_append_reaches_their_engine(tmp_path: Path, engines: str, send: str) -> None:
    assert check(tmp_path, actors_tree(engines, send)) == [("trainer.py", 11, "RPL102")]


def test_an_actor_made_without_options_is_that_actor_too(tmp_path: Path) -> None:
    append = APPEND.replace(".options(num_cpus=1, num_gpus=1)", "")
    assert check(tmp_path, actors_tree(append=append)) == [("trainer.py", 11, "RPL102")]


def test_a_request_with_top_k_in_range_says_nothing(tmp_path: Path) -> None:
    assert check(tmp_path, actors_tree(top_k="20")) == []


@pytest.mark.parametrize(
    ("append", "after"),
    [
        ("vllm_engines.append(ray.get_actor(f'llm_{i}'))", ""),  # an actor from outside the tree
        ("vllm_engines.append(pretrain)", ""),  # what the caller gives
        (APPEND, "vllm_engines.extend(ray.util.list_named_actors())\n    "),  # items added from outside
        ("if i:\n            " + APPEND, ""),  # appended under a branch of the loop
    ],
)
def test_a_list_whose_items_come_from_outside_says_nothing(tmp_path: Path, append: str, after: str) -> None:
    assert check(tmp_path, actors_tree(append=append, after=after)) == []


def test_a_list_of_actors_from_outside_the_tree_handed_in_says_nothing(tmp_path: Path) -> None:
    engines = f"self.engines = {MASKED}\n        trainer = RayPPOTrainer(self.cfg, ray.get(self.cfg['engines']))"
    files = actors_tree(engines=engines)
    files["playground/orz_7b_ppo.py"] = "import ray\n" + files["playground/orz_7b_ppo.py"]
    assert check(tmp_path, files) == []


def test_a_request_through_an_actor_method_that_changes_its_arguments_says_nothing(tmp_path: Path) -> None:
    files = actors_tree()
    forwarded = "return self.llm.generate(*args, **kwargs)"
    files["orz/ppo/vllm_utils.py"] = files["orz/ppo/vllm_utils.py"].replace(forwarded, "return self.llm.generate(args[0])")
    assert check(tmp_path, files) == []
