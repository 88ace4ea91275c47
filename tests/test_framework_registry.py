"""The framework registry: what `framework_registry.ADAPTERS` declares is all `programs` and the
editions need to know of a framework."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from replaylint import programs
from replaylint.framework_registry import entry_points
from replaylint.frameworks import verl
from replaylint.frameworks.hydra_struct import PACKAGED


def _launchers_with(entry: str, cases: list[list[str]]) -> list[object]:
    """`programs.split_launcher` of each case in a fresh interpreter whose registry holds one
    adapter more (`entry`, the source of an `EntryPoint`)."""
    code = (
        "import json, sys\n"
        "from replaylint import framework_registry as r\n"
        f"r.ADAPTERS = (*r.ADAPTERS, r.Adapter('demo-rl', 'demo_rl', entry_points=(r.{entry},)))\n"
        "from replaylint.programs import split_launcher\n"
        "print(json.dumps([split_launcher(words) for words in json.loads(sys.argv[1])]))\n"
    )
    run = subprocess.run([sys.executable, "-c", code, json.dumps(cases)], capture_output=True, text=True, check=True)
    return [tuple(found) if found else None for found in json.loads(run.stdout)]


def test_a_framework_known_by_its_scripts_shape_is_one_registry_line() -> None:
    entry = "EntryPoint('demo-rl', script_names=r'^train_\\w+\\.py$', default_configs=(('train_ppo.py', 'conf/ppo.yaml'),), overrides=r'^demo\\.')"
    cases = [
        ["python", "scripts/train_ppo.py"],  # ships a default config
        ["uv", "run", "python", "train_x.py", "demo.lr=1"],  # its overrides follow
        ["python", "train_x.py", "lr=1"],  # neither: another project's script
        ["coverage", "run", "train_ppo.py"],
    ]
    assert _launchers_with(entry, cases) == [("demo-rl", 1), ("demo-rl", 3), None, ("demo-rl", 2)]


def test_a_framework_known_by_its_modules_overrides_is_one_registry_line() -> None:
    entry = "EntryPoint('demo-module', modules=('demo.serve',), any_module=True, overrides=r'^engine\\.\\w+=')"
    cases = [
        ["python", "-m", "lab.train", "engine.tp=2"],
        ["python", "-m", "demo.serve"],  # the module word is given too
        ["python", "-m", "lab.train", "other.tp=2"],  # a module of the user's, read as a program
    ]
    assert _launchers_with(entry, cases) == [("demo-module", 2), ("demo-module", 2), ("trl-script", 2)]


def test_every_default_config_belongs_to_a_script_of_its_shape() -> None:
    # a script the shape does not admit would never reach its default configuration
    for _, entry in entry_points().values():
        for script, config in entry.default_configs:
            assert entry.script_names and re.match(entry.script_names, script), (entry.name, script)
            assert config.endswith((".yaml", ".yml")), (entry.name, config)


def test_nemo_rl_and_skyrl_programs_are_the_registry_s() -> None:
    assert programs.split_launcher(["python", "examples/run_sft.py"]) == ("nemo-rl", 1)
    assert programs.split_launcher(["python", "examples/run_mine.py", "++policy.generation.top_k=5"]) == ("nemo-rl", 1)
    assert programs.split_launcher(["python", "examples/run_mine.py", "--config", "c.yaml"]) == ("nemo-rl", 1)
    assert programs.split_launcher(["python", "-m", "lab.main_x", "generator.backend=vllm"]) == ("skyrl-module", 2)
    # not a dotted module: SkyRL's shape needs one; a module of the user's, read as a program
    assert programs.split_launcher(["python", "-m", "lab", "generator.backend=vllm"]) == ("trl-script", 2)


def test_each_verl_edition_judges_overrides_against_the_keys_of_its_own_releases() -> None:
    # Hydra's refusals are decided from the dump of the releases the edition stands for
    for edition in verl.EDITIONS.editions:
        read = {*edition.releases, *(ref[:7] for ref in edition.refs)}
        assert set(edition.hydra_keys.releases()) == read, edition.name
        assert all(edition.hydra_keys.tree(config) for config in PACKAGED)


def test_a_pin_chooses_the_edition_of_a_framework_no_launch_has_loaded_yet() -> None:
    # the editions are found through the registry, not through the adapters imported so far
    code = (
        "import sys\n"
        "from replaylint.frameworks.editions import family_of\n"
        "assert 'replaylint.frameworks.openrlhf' not in sys.modules\n"
        "family = family_of('openrlhf')\n"
        "print(family.framework, len(family.editions) > 1, family_of('no-such-framework'))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["OpenRLHF", "True", "None"]
