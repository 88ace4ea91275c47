"""Issue 27, item 3: a module of the tree imported whole and used as `module.name` (`import
rollout; rollout.make_engine()`, `import settings; settings.MODE`, `from pkg import settings;
settings.VLLM_ARGS`) is followed as `from module import name` is. A module that is not the tree's,
or an attribute set on the module at run time (`settings.MODE = sys.argv[1]`), stays unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

ROLLOUT = (
    "from vllm import LLM\n\n\ndef make_engine(mode='raw_logprobs'):\n    return LLM('m', return_sampling_mask=True, logprobs_mode=mode)\n"
)
SETTINGS = "MODE = 'raw_logprobs'\nVLLM_ARGS = {'return_sampling_mask': True, 'logprobs_mode': MODE}\n"


@pytest.mark.parametrize(
    "main",
    [
        "import rollout\n\nengine = rollout.make_engine()\n",
        "import rollout as r\n\nengine = r.make_engine()\n",
        "def main():\n    import rollout\n\n    return rollout.make_engine()\n\n\nmain()\n",
    ],
)
def test_a_function_of_a_module_imported_whole_is_called_with_its_arguments(tmp_path: Path, main: str) -> None:
    assert check(tmp_path, {"rollout.py": ROLLOUT, "main.py": main}) == [("rollout.py", 4, "RPL003")]


def test_a_call_that_passes_the_mode_is_silent(tmp_path: Path) -> None:
    main = "import rollout\n\nengine = rollout.make_engine('processed_logprobs')\n"
    assert check(tmp_path, {"rollout.py": ROLLOUT, "main.py": main}) == []


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"main.py": "import settings\nfrom vllm import LLM\n\nLLM('m', return_sampling_mask=True, logprobs_mode=settings.MODE)\n"},
            [("settings.py", 1, "RPL003")],  # a constant of another module, on its own line (round 15), where the fix writes
        ),
        (
            {"main.py": "import settings\nfrom vllm import LLM\n\nLLM('m', **settings.VLLM_ARGS)\n"},
            [("settings.py", 1, "RPL003")],
        ),
        (
            {
                "pkg/__init__.py": "",
                "pkg/settings.py": SETTINGS,
                "pkg/main.py": "from pkg import settings\nfrom vllm import LLM\n\nLLM('m', **settings.VLLM_ARGS)\n",
            },
            [("settings.py", 1, "RPL003")],
        ),
        (
            {
                "pkg/__init__.py": "",
                "pkg/settings.py": SETTINGS,
                "pkg/main.py": "import pkg.settings\nfrom vllm import LLM\n\nLLM('m', **pkg.settings.VLLM_ARGS)\n",
            },
            [("settings.py", 1, "RPL003")],
        ),
    ],
)
def test_a_name_of_a_settings_module_imported_whole_is_its_value(tmp_path: Path, files: dict, expected: list) -> None:
    assert check(tmp_path, {"settings.py": SETTINGS, **files}) == expected


@pytest.mark.parametrize(
    "main",
    [
        "import sys\nimport settings\nfrom vllm import LLM\n\nsettings.MODE = sys.argv[1]\n"
        "LLM('m', return_sampling_mask=True, logprobs_mode=settings.MODE)\n",
        "import sys\nimport settings\nfrom vllm import LLM\n\nsetattr(settings, sys.argv[1], sys.argv[2])\n"
        "LLM('m', return_sampling_mask=True, logprobs_mode=settings.MODE)\n",
        "import config\nfrom vllm import LLM\n\nLLM('m', return_sampling_mask=True, logprobs_mode=config.MODE)\n",  # not the tree's
        "import sys\nimport settings as s\nfrom vllm import LLM\n\nclass A:\n    cfg = s\n\nA.cfg.MODE = sys.argv[1]\n"
        "LLM('m', return_sampling_mask=True, logprobs_mode=s.MODE)\n",  # set through a dotted name
    ],
)
def test_a_module_attribute_set_at_run_time_or_of_a_module_not_in_the_tree_is_silent(tmp_path: Path, main: str) -> None:
    assert check(tmp_path, {"settings.py": SETTINGS, "main.py": main}) == []


def test_a_module_attribute_another_module_sets_is_silent(tmp_path: Path) -> None:
    files = {
        "settings.py": SETTINGS,
        "cli.py": "import sys\nimport settings\n\n\ndef parse():\n    settings.MODE = sys.argv[1]\n",
        "main.py": "import cli\nimport settings\nfrom vllm import LLM\n\ncli.parse()\n"
        "LLM('m', return_sampling_mask=True, logprobs_mode=settings.MODE)\n",
    }
    assert check(tmp_path, files) == []
