"""Round 16, Open-Reasoner-Zero's shape: `orz/` and `orz/ppo/` are namespace packages (no
`__init__.py`) that a launch script in a folder beside `orz/` (`playground/`) imports by their
dotted name from the tree's root (`from orz.ppo.vllm_utils import create_vllm_engines`): the
modules of the package are read with that script, so the engine an actor of `orz/ppo/` builds
gets the keywords the script passes. A script that does not import the package by that name, a
value from outside the tree, a package three levels deep, and another library's engine stay
silent."""

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


def test_a_package_three_namespace_levels_deep_is_not_looked_for_beside_its_top(tmp_path: Path) -> None:
    imports = "from orz.exps.ppo.vllm_utils import create_vllm_engines"
    files = orz_tree(imports, "create_vllm_engines", "'raw_logprobs'", package="orz/exps/ppo")
    assert check(tmp_path, files) == []


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
