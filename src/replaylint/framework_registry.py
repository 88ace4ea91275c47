"""The RL frameworks replaylint reads, one `Adapter` record each: the one place a framework is
declared. Data only (it imports nothing of replaylint), so the layers below `frameworks` read it
too: `launchers` derives its entry-point tables from it, `frameworks.commands` its dispatch,
`frameworks.editions` the packages whose pins choose an edition, `frontends` the finders and the
prefilter's framework words. The code of a framework is its adapter module,
`replaylint.frameworks.<module>`, imported only when a launch of it is found.

Adding a framework is one module in `frameworks/` and one line in `ADAPTERS` (docs/architecture.md
shows AReaL's).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import NamedTuple

# The records are NamedTuples, not dataclasses: the prefilter reads this module in every run, and
# `dataclasses` (with `inspect`) costs a pre-commit run of ten files a quarter of its time.


class EntryPoint(NamedTuple):
    """One way a command line starts a framework: `programs.split_launcher` names it `name` and
    `frameworks.commands` hands its words to `function` of the adapter module.

    `modules`: `python -m MODULE`; `programs`: `PROGRAM SUBCOMMAND` pairs; `scripts`: files run by
    Python, matched by their path's end (`$REPO/open_instruct/grpo_fast.py`). `bare`: a script also
    runs without `python` in front (`uv run SCRIPT`); `distributed`: `accelerate launch` and
    `torchrun` may run it. Every function is given the command's `launch_context.LaunchContext`,
    the span and the tokens; `words`: also vLLM's word arguments (elements, syntax); `options`:
    keyword arguments it is always given. `users_program`: a Python program of the user's, which
    every adapter's `script_reader` is asked about in turn (the first launch wins)."""

    name: str
    function: str = "command_launch"
    modules: tuple[str, ...] = ()
    programs: tuple[tuple[str, str], ...] = ()
    scripts: tuple[str, ...] = ()
    bare: bool = False
    distributed: bool = False
    words: bool = False
    options: tuple[tuple[str, object], ...] = ()
    users_program: bool = False


class Prefilter(NamedTuple):
    """Bytes a file of `kind` holds when the framework may launch from it without naming the mask
    (NeMo-RL's `defaults:` file turns it on): every group has one of its words."""

    kind: str
    groups: tuple[tuple[bytes, ...], ...]

    def matches(self, data: bytes) -> bool:
        return all(any(word in data for word in group) for group in self.groups)


class Adapter(NamedTuple):
    """One framework: `module` is its adapter (`replaylint.frameworks.<module>`); `packages` the
    names a project pins it by (they choose its edition). Finders, functions of the adapter that
    claim what has its shape: `yaml_finder(view, path, read_text, read_view) -> list[Launch] | None`
    a YAML document (None: not its; `read_text` reads other files of the tree, `read_view` another
    YAML file as a `ConfigView`; the finders are asked in `ADAPTERS`' order, the first claim
    wins), `toml_finder(document)` likewise a TOML file; `claims_mappings`: its `claims(settings)`
    recognises a Python engine-argument mapping as its own and `engine_settings(settings,
    anchor)` gives what reaches vLLM (messages say `name`'s); `script_reader(context, span,
    tokens)` reads a program of the user's (`tokens[0]` is its file) for a launch of this
    framework (None: not one)."""

    name: str
    module: str
    packages: tuple[str, ...] = ()
    entry_points: tuple[EntryPoint, ...] = ()
    prefilters: tuple[Prefilter, ...] = ()
    yaml_finder: str = ""
    toml_finder: str = ""
    claims_mappings: bool = False
    script_reader: str = ""

    def load(self) -> ModuleType:
        return importlib.import_module(f"replaylint.frameworks.{self.module}")


# NeMo-RL's `examples/run_*.py` scripts (`programs.NEMO_RL_DEFAULT_CONFIGS`), by the start of their names.
NEMO_RL_SCRIPTS = (b"grpo", b"ppo", b"sft", b"dpo", b"rm", b"eval", b"distillation", b"vlm_", b"xtoken")

ADAPTERS: tuple[Adapter, ...] = (
    Adapter(
        "verl",
        "verl",
        ("verl",),
        (EntryPoint("verl", modules=("verl.trainer.main_ppo",)),),
        # A fork's own rollout.yaml may turn the mask on for command lines that do not name it.
        prefilters=(Prefilter("shell", ((b"verl.trainer.main_ppo",),)), Prefilter("yaml", ((b"verl.trainer.main_ppo",),))),
        yaml_finder="yaml_launches",
    ),
    Adapter(
        "nemo-rl",
        "nemo_rl",
        ("nemo-rl",),
        (EntryPoint("nemo-rl"),),  # its `examples/run_*.py` scripts: `programs._nemo_rl` decides
        # A fork's own worker may turn the mask on for configs and scripts that do not name it.
        (
            Prefilter("yaml", ((b"defaults:", b"vllm_cfg"), (b"generation",))),
            Prefilter("shell", ((b"examples/run_",), tuple(b"run_" + name for name in NEMO_RL_SCRIPTS))),
        ),
        yaml_finder="yaml_launches",
    ),
    Adapter(
        "skyrl",
        "skyrl",
        ("skyrl",),
        (
            EntryPoint("skyrl", modules=("skyrl.train.entrypoints.main_base",), options=(("module", False),)),
            EntryPoint("skyrl-module", options=(("module", True),)),  # `programs._skyrl_module`
            # its standalone server: vLLM's API-server words (`frameworks.skyrl_server`)
            EntryPoint(
                "skyrl-server",
                "server_launch",
                modules=("skyrl.backends.skyrl_train.inference_servers.vllm_server_actor",),
                words=True,
            ),
        ),
        # A fork's own build_vllm_cli_args may turn the mask on for command lines that do not name it.
        prefilters=(Prefilter("shell", ((b"skyrl.train.entrypoints",),)),),
    ),
    Adapter(
        "prime-rl",
        "prime_rl",
        ("prime-rl",),
        # the mask may be implicit (truncating train sampling), or a fork's default (prime_rl_fork)
        prefilters=(Prefilter("toml", ((b"orchestrator",), (b"inference",))),),
        toml_finder="toml_launches",
    ),
    Adapter(
        "trl",
        "trl",
        ("trl",),
        (EntryPoint("trl", modules=("trl.scripts.vllm_serve",), programs=(("trl", "vllm-serve"),), words=True),),
    ),
    Adapter(
        "trl-colocate",
        "trl_colocate",
        entry_points=(
            EntryPoint(
                "trl-train",
                modules=("trl.scripts.grpo", "trl.scripts.rloo", "trl.scripts.distillation"),
                # `trl grpo ...` runs trl/scripts/grpo.py under `accelerate launch`
                programs=(("trl", "grpo"), ("trl", "rloo"), ("trl", "distillation")),
                scripts=("trl/scripts/grpo.py", "trl/scripts/rloo.py", "trl/scripts/distillation.py"),
                distributed=True,
            ),
            EntryPoint("trl-script", users_program=True),  # any other Python program
        ),
        script_reader="script_launch",
    ),
    Adapter(
        "OpenRLHF",
        "openrlhf",
        ("openrlhf",),
        (EntryPoint("openrlhf", modules=("openrlhf.cli.train_ppo_ray",)),),
        # A fork's own create_vllm_engines may turn the mask on for command lines that do not name it.
        prefilters=(Prefilter("shell", ((b"openrlhf.cli.train_ppo_ray",),)),),
        claims_mappings=True,
    ),
    Adapter(
        "open-instruct",
        "open_instruct",
        ("open-instruct",),
        (EntryPoint("open-instruct", modules=("open_instruct.grpo_fast",), scripts=("open_instruct/grpo_fast.py",), bare=True),),
        # A fork's own engine actor may turn the mask on for command lines that do not name it.
        prefilters=(Prefilter("shell", ((b"grpo_fast",),)),),
        claims_mappings=True,
    ),
    Adapter(
        "AReaL",
        "areal",
        ("areal",),
        (EntryPoint("areal", modules=tuple(f"areal.infra.launcher.{m}" for m in ("local", "ray", "slurm", "vllm_server"))),),
        yaml_finder="yaml_launches",
        script_reader="script_launch",
    ),
    Adapter("roll", "roll", yaml_finder="yaml_launches"),
)


def entry_points() -> dict[str, tuple[Adapter, EntryPoint]]:
    """Every entry point by its name, with its framework."""
    return {entry.name: (adapter, entry) for adapter in ADAPTERS for entry in adapter.entry_points}


def pinned_packages() -> tuple[str, ...]:
    return tuple(package for adapter in ADAPTERS for package in adapter.packages)


def yaml_finders() -> tuple[Adapter, ...]:
    return tuple(adapter for adapter in ADAPTERS if adapter.yaml_finder)


def toml_finders() -> tuple[Adapter, ...]:
    return tuple(adapter for adapter in ADAPTERS if adapter.toml_finder)


def mapping_claimers() -> tuple[Adapter, ...]:
    return tuple(adapter for adapter in ADAPTERS if adapter.claims_mappings)


def script_readers() -> tuple[Adapter, ...]:
    return tuple(adapter for adapter in ADAPTERS if adapter.script_reader)


def prefilters(kind: str) -> tuple[Prefilter, ...]:
    return tuple(prefilter for adapter in ADAPTERS for prefilter in adapter.prefilters if prefilter.kind == kind)


def prefilter_words() -> tuple[bytes, ...]:
    """Words one of which a file holds whenever some framework's prefilter matches it (each
    prefilter's first group, which it needs): the words the prefilter's first look
    (`frontends.triggers.WORDS`) must find for the frameworks."""
    return tuple(dict.fromkeys(word for adapter in ADAPTERS for prefilter in adapter.prefilters for word in prefilter.groups[0]))
