"""The RL frameworks replaylint reads, one `Adapter` record each: the one place a framework is
declared. Data only (it imports nothing of replaylint), so the layers below `frameworks` read it
too: `programs` derives its entry-point tables from it (also the programs known by their
shape), `frameworks.commands` its dispatch, `frameworks.editions` the packages whose pins choose
an edition and where each framework's editions are, `frontends` the finders and the prefilter's
framework words. The code of a framework is its adapter module,
`replaylint.frameworks.<module>`, imported only when a launch of it is found.

Adding a framework is one module in `frameworks/` and one line in `ADAPTERS` (docs/architecture.md
shows AReaL's).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, NamedTuple

# The records are NamedTuples, not dataclasses: the prefilter reads this module in every run, and
# `dataclasses` (with `inspect`) costs a pre-commit run of ten files a quarter of its time.


class EntryPoint(NamedTuple):
    """One way a command line starts a framework: `programs.split_launcher` names it `name` and
    `frameworks.commands` hands its words to `function` of the adapter module (`module:function`:
    of another module of `frameworks/`).

    `modules`: `python -m MODULE`; `programs`: `PROGRAM SUBCOMMAND` pairs; `scripts`: files run by
    Python, matched by their path's end (`$REPO/open_instruct/grpo_fast.py`). `bare`: a script also
    runs without `python` in front (`uv run SCRIPT`); `distributed`: `accelerate launch` and
    `torchrun` may run it. Every function is given the command's `launch_context.LaunchContext`,
    the span and the tokens; `words`: also vLLM's word arguments (elements, syntax); `options`:
    keyword arguments it is always given. `users_program`: a Python program of the user's, which
    every adapter's `script_reader` is asked about in turn (the first launch wins).

    Programs known by their shape, whose words the adapter is given from the program's own word
    on (it decides from it which configuration the program loads, or whether it starts vLLM):
    `script_names`, a regular expression of the file names of scripts of the framework's shape
    (run by Python, by `coverage run` or bare); `any_module`: any dotted module `python -m` runs
    may be one. Such a program is the framework's when it is one of `default_configs` (a
    script's file name and the configuration it loads without `--config`, relative to it) or
    when a later word matches `overrides` (the framework's own override keys)."""

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
    script_names: str = ""
    any_module: bool = False
    default_configs: tuple[tuple[str, str], ...] = ()
    overrides: str = ""

    def program_word_given(self) -> bool:
        """Whether the adapter is given the program's own word first (a program of the user's or
        one known by its shape)."""
        return self.users_program or bool(self.script_names or self.any_module)


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
    framework (None: not one). `editions`: the attribute of the adapter module that holds its
    `frameworks.editions.Editions` (their `package` is one of `packages`)."""

    name: str
    module: str
    packages: tuple[str, ...] = ()
    entry_points: tuple[EntryPoint, ...] = ()
    prefilters: tuple[Prefilter, ...] = ()
    yaml_finder: str = ""
    toml_finder: str = ""
    claims_mappings: bool = False
    script_reader: str = ""
    editions: str = ""

    def load(self) -> ModuleType:
        return importlib.import_module(f"replaylint.frameworks.{self.module}")

    def function_of(self, entry: EntryPoint) -> Any:
        """The function an entry point of this adapter names (`module:function`: of another
        module of `frameworks/`)."""
        module, _, name = entry.function.rpartition(":")
        return getattr(importlib.import_module(f"replaylint.frameworks.{module}") if module else self.load(), name)


# NeMo-RL's `examples/run_*.py` and the config each loads without `--config` (`os.path.join(
# os.path.dirname(__file__), "configs", ...)`), alike at v0.7.0 and main @ 7ea279a; `run_eval.py`
# reads its overrides with `OmegaConf.from_cli`, the others with Hydra's parser.
NEMO_RL_DEFAULT_CONFIGS = (
    ("run_grpo.py", "configs/grpo_math_1B.yaml"),
    ("run_grpo_single_controller.py", "configs/grpo_math_1B_megatron_single_controller.yaml"),
    ("run_grpo_sliding_puzzle.py", "configs/grpo_sliding_puzzle.yaml"),
    ("run_vlm_grpo.py", "configs/vlm_grpo_3B.yaml"),
    ("run_ppo.py", "configs/ppo_math_1B.yaml"),
    ("run_distillation.py", "configs/distillation_math.yaml"),
    ("run_xtoken_off_policy_distillation.py", "configs/xtoken_off_policy_distillation.yaml"),
    ("run_eval.py", "configs/evals/eval.yaml"),
    ("run_sft.py", "configs/sft.yaml"),
    ("run_dpo.py", "configs/dpo.yaml"),
    ("run_rm.py", "configs/rm.yaml"),
)
# Those scripts by the start of their names (the shell prefilter's words).
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
        editions="EDITIONS",
    ),
    Adapter(
        "nemo-rl",
        "nemo_rl",
        ("nemo-rl",),
        (
            # any `run_*.py` script: one it ships, or one followed by its overrides (`policy.*`,
            # `generation.*`, Hydra's `+`/`++` before them) or a `--config`
            EntryPoint(
                "nemo-rl",
                script_names=r"^run_\w+\.py$",
                default_configs=NEMO_RL_DEFAULT_CONFIGS,
                overrides=r"^(?:\+{0,2}(?:policy|generation)\.|--config\Z)",
            ),
        ),
        # A fork's own worker may turn the mask on for configs and scripts that do not name it.
        (
            Prefilter("yaml", ((b"defaults:", b"vllm_cfg"), (b"generation",))),
            Prefilter("shell", ((b"examples/run_",), tuple(b"run_" + name for name in NEMO_RL_SCRIPTS))),
        ),
        yaml_finder="yaml_launches",
        editions="EDITIONS",
    ),
    Adapter(
        "skyrl",
        "skyrl",
        ("skyrl",),
        (
            EntryPoint("skyrl", modules=("skyrl.train.entrypoints.main_base",), options=(("module", False),)),
            # `serve` (inference only), or any module followed by SkyRL's overrides: an entrypoint
            # built on `main_base` (`-m examples.train.algorithms.dapo.main_dapo generator.x=...`);
            # its adapter decides from the module's code or SkyRL's own list
            EntryPoint(
                "skyrl-module",
                modules=("skyrl.train.entrypoints.serve",),
                options=(("module", True),),
                any_module=True,
                overrides=r"^(generator|trainer)\.[\w.-]+=",
            ),
            # its standalone server: vLLM's API-server words (`frameworks.skyrl_server`)
            EntryPoint(
                "skyrl-server",
                "skyrl_server:server_launch",
                modules=("skyrl.backends.skyrl_train.inference_servers.vllm_server_actor",),
                words=True,
            ),
        ),
        # A fork's own build_vllm_cli_args may turn the mask on for command lines that do not name it.
        prefilters=(Prefilter("shell", ((b"skyrl.train.entrypoints",),)),),
        editions="EDITIONS",
    ),
    Adapter(
        "prime-rl",
        "prime_rl",
        ("prime-rl",),
        # `rl @ FILE.toml`, `inference @ FILE.toml` (`uv run rl @ rl.toml`): its TOML in the command's environment
        (
            EntryPoint("prime-rl", "prime_rl_command:command_launch", programs=(("rl", "@"),)),
            EntryPoint(
                "prime-rl-inference",
                "prime_rl_command:command_launch",
                programs=(("inference", "@"),),
                options=(("entrypoint", "inference"),),
            ),
        ),
        # the mask may be implicit (truncating train sampling), or a fork's default (prime_rl_fork);
        # a fork's `to_namespace` may turn it on from a variable the launching script exports
        prefilters=(
            Prefilter("toml", ((b"orchestrator",), (b"inference",))),
            Prefilter("shell", ((b"rl @", b"inference @"),)),
        ),
        toml_finder="toml_launches",
        editions="EDITIONS",
    ),
    Adapter(
        "trl",
        "trl",
        ("trl",),
        (EntryPoint("trl", modules=("trl.scripts.vllm_serve",), programs=(("trl", "vllm-serve"),), words=True),),
        editions="EDITIONS",
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
        editions="EDITIONS",
    ),
    Adapter(
        "open-instruct",
        "open_instruct",
        ("open-instruct",),
        (EntryPoint("open-instruct", modules=("open_instruct.grpo_fast",), scripts=("open_instruct/grpo_fast.py",), bare=True),),
        # A fork's own engine actor may turn the mask on for command lines that do not name it.
        prefilters=(Prefilter("shell", ((b"grpo_fast",),)),),
        claims_mappings=True,
        editions="EDITIONS",
    ),
    Adapter(
        "AReaL",
        "areal",
        ("areal",),
        (EntryPoint("areal", modules=tuple(f"areal.infra.launcher.{m}" for m in ("local", "ray", "slurm", "vllm_server"))),),
        yaml_finder="yaml_launches",
        script_reader="script_launch",
        editions="EDITIONS",
    ),
    Adapter("roll", "roll", yaml_finder="yaml_launches"),
    Adapter("torchforge", "torchforge", yaml_finder="yaml_launches"),
)


class ServedClass(NamedTuple):
    """A serving framework that makes a class of the user's with its parsed config file: the file
    `config_file` (a mapping naming one of `marker_keys`, none of `other_kinds`) names the module
    (`module_dir`/`module_file`, each a config key with its default) and the class (`class_name`),
    and the framework makes it with the whole mapping as the keyword `keyword` (its `**kwargs`'
    key too), then calls its methods (`load`, `predict`)."""

    name: str
    config_file: str
    marker_keys: tuple[str, ...]
    other_kinds: tuple[str, ...]
    module_dir: tuple[str, str]
    module_file: tuple[str, str]
    class_name: tuple[str, str]
    keyword: str


# Truss 0.12.0 (truss/templates/server/model_wrapper.py `_load_impl`): the class
# `config["model_class_name"]` of `config["model_module_dir"] / config["model_class_filename"]`
# (defaults `Model`, `model`, `model.py`: truss/base/truss_config.py) made with
# `_prepare_init_args`' `config=config`, the parsed config.yaml, then `load()`. A config with a
# `docker_server` runs its own command instead.
SERVED_CLASSES: tuple[ServedClass, ...] = (
    ServedClass(
        "Truss",
        "config.yaml",
        ("model_name", "model_metadata", "resources", "python_version", "requirements"),
        ("docker_server",),
        ("model_module_dir", "model"),
        ("model_class_filename", "model.py"),
        ("model_class_name", "Model"),
        "config",
    ),
)


class GroupMaker(NamedTuple):
    """A framework's base class whose classmethod `method` makes the subclass it is called on with
    the call's own arguments (`Cls.method(*args, **kwargs)` is a construction `Cls(*args,
    **kwargs)`): the base is imported from `package`, and the subclass does not define `method`."""

    framework: str
    method: str
    package: str


# RLinf (RLinf/RLinf rlinf/scheduler/worker/worker.py, read at 085621d3 and its stored versions):
# `Worker.create_group(cls, *args, **kwargs)` returns `WorkerGroup(cls, args, kwargs)`, whose
# `launch(cluster, ...)` makes `cls(*args, **kwargs)` in each placed Ray actor.
GROUP_MAKERS: tuple[GroupMaker, ...] = (GroupMaker("RLinf", "create_group", "rlinf.scheduler"),)


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
