#!/usr/bin/env python3
"""Dump the keys of verl's composed `ppo_trainer` (and `ppo_megatron_trainer`) configuration, per edition, from its wheels.

    pip download --no-deps verl==0.9.1 -d /tmp/w   # one wheel per release read
    git -C verl archive b178a3cd56f58b2d502255daba591e92833930a7 verl/trainer/config | tar -x -C /tmp/w/verl-b178a3c
    python scripts/dump_verl_config_keys.py /tmp/w/verl-*.whl /tmp/w/verl-b178a3c \\
        > src/replaylint/frameworks/data/verl-config-keys.json

`python -m verl.trainer.main_ppo` is `@hydra.main(config_path="config", config_name="ppo_trainer")`:
Hydra composes `verl/trainer/config/ppo_trainer.yaml` with its `defaults`, sets the result to
struct mode, then applies the command line's overrides to it (`ConfigLoaderImpl
._apply_overrides_to_config`, hydra-core 1.3). Whether an override is refused ("Could not
override ...", "Could not append ...") depends only on which keys the composed configuration has
and on what each holds. This script composes it with the real Hydra (YAML files only, nothing of
verl is imported) and writes each release's tree: a mapping for every mapping, and for every
other value one of `null` (null or `???`: Hydra's `+` adds there), `value`, `list`, or `interp`
(an interpolation: what it resolves to is not read). Releases that one replaylint edition
stands for (`frameworks/verl.py` `EDITIONS`) are merged into its tree: a key whose kind differs
between them is `unknown`, a key only some have too (replaylint then judges nothing that rests on it); the
edition 0.8.0 also stands for GitHub's main at b178a3c, whose configuration folder is read too.

Output: {"source": ..., "hydra": "1.3.x", "editions": {"0.9.1": {"releases": [...], "trees": {"ppo_trainer": {...}, ...}}}}
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import zipfile
from pathlib import Path

# frameworks/verl.py EDITIONS: releases (wheels) and the commit of GitHub's main it stands for (a folder)
EDITIONS = {"0.9.1": ("0.9.1",), "0.9.0": ("0.9.0",), "0.8.0": ("0.7.1", "0.8.0", "b178a3c")}
# `--config-name` choices that replaylint follows: main_ppo's default, and the packaged Megatron
# trainer that verl's examples name with `--config-path=config`.
CONFIGS = ("ppo_trainer", "ppo_megatron_trainer")
CONFIG = "verl/trainer/config/"


def composed_tree(wheel: str, name: str) -> dict:
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from omegaconf import DictConfig, ListConfig, OmegaConf

    def walk(node) -> object:
        if isinstance(node, DictConfig):
            return {str(key): walk(node._get_node(key)) for key in node.keys()}
        if isinstance(node, ListConfig):
            return "list"
        if node._is_interpolation():
            return "interp"
        value = node._value()
        return "null" if value is None or value == "???" else "value"

    with tempfile.TemporaryDirectory() as folder:
        if Path(wheel).is_dir():
            folder = wheel
        else:
            with zipfile.ZipFile(wheel) as archive:
                archive.extractall(folder, [name for name in archive.namelist() if name.startswith(CONFIG)])
        GlobalHydra.instance().clear()
        with initialize_config_dir(config_dir=str(Path(folder, CONFIG)), version_base=None):
            config = compose(config_name=name)
        GlobalHydra.instance().clear()
        assert OmegaConf.is_struct(config)
        return walk(config)


def merged(trees: list[object]) -> object:
    if all(isinstance(tree, dict) for tree in trees):
        keys = dict.fromkeys(key for tree in trees for key in tree)
        return {key: merged([tree[key] for tree in trees]) if all(key in tree for tree in trees) else "unknown" for key in keys}
    return trees[0] if all(tree == trees[0] for tree in trees) else "unknown"


def main(wheels: list[str]) -> None:
    import hydra

    by_release = {re.match(r"verl-([\w.]+?)(-py3|$)", Path(wheel).name).group(1): wheel for wheel in wheels}
    editions = {}
    for name, releases in EDITIONS.items():
        trees = {config: merged([composed_tree(by_release[release], config) for release in releases]) for config in CONFIGS}
        editions[name] = {"releases": list(releases), "trees": trees}
    source = "verl wheels from PyPI; verl/trainer/config/ppo_trainer.yaml and ppo_megatron_trainer.yaml composed by Hydra (scripts/dump_verl_config_keys.py)"
    json.dump({"source": source, "hydra": hydra.__version__, "editions": editions}, sys.stdout, separators=(",", ":"), sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
