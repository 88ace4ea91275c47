"""Source edits: a framework's own files changed as a fork changes them, judged by the edited
code. Each edit is made in a copy of a judged release's installed package (hard links, the
edited file written anew) named `<framework>-<release>+<edit>` beside it, which engine_judge.py
runs as a release of its own; replaylint reads the same edited file in the tree of the mutant,
where a fork's scripts find it (`frameworks/verl.py`, "A fork")."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

VERL_ROLLOUT = "verl/trainer/config/rollout/rollout.yaml"
VERL_SERVER = "verl/workers/rollout/vllm_rollout/vllm_async_server.py"
_SPREAD = "            **engine_kwargs,\n"
_LOGPROBS = '            "logprobs_mode": self.config.logprobs_mode,\n'
OPENRLHF_ENGINES = "openrlhf/trainer/ray/vllm_engine.py"
_SLEEP = '            "enable_sleep_mode": vllm_enable_sleep,\n'  # the last key of `create_vllm_engines`' `actor_kwargs`
_CORRECTED = '            ), "vLLM > 0.10.0 is required for logprobs_mode"\n'  # the end of its `if logprobs_mode:`
SKYRL_ENGINE_ARGS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
_TRUSTED = "        trust_remote_code=True,\n"  # the last keyword of `build_vllm_cli_args`'s `overrides = dict(...)`
_EXPERT = '        args.update({"enable_expert_parallel": self.config.expert_parallel_size > 1})\n'


@dataclass(frozen=True)
class ForkScript:
    """A launch script of the fork's own, made from a corpus launch of its release the way a fork
    brings a stale one up to date (`old` replaced by `new`), judged with the corpus's."""

    source: str  # the corpus launch (its manifest path)
    old: str
    new: str

    @property
    def path(self) -> str:
        return self.source.removesuffix(".sh") + ".fork.sh"

    def text(self, source_text: str) -> str:
        if self.old not in source_text:
            raise ValueError(f"{self.source} no longer holds {self.old!r}")
        return source_text.replace(self.old, self.new)


@dataclass(frozen=True)
class SourceEdit:
    name: str
    framework: str
    release: str  # the judged release whose package is edited
    path: str  # the edited file, inside the package's folder
    old: str  # every occurrence is replaced
    new: str
    added: tuple[tuple[str, str], ...] = ()  # files the fork adds beside its package: (path, text)
    script: ForkScript | None = None  # a launch of the fork's own, judged beside the release's corpus launches

    @property
    def judged_as(self) -> str:
        """The release name engine_judge.py runs the edited copy as (its folder's suffix)."""
        return f"{self.release}+{self.name}"

    def edited(self, text: str) -> str:
        if self.old not in text:
            raise ValueError(f"{self.framework} {self.release} {self.path} no longer holds {self.old!r}")
        return text.replace(self.old, self.new)


# A logits processor that vLLM 0.34 loads (a subclass of its V2 runner's interface) and that does nothing.
CLAMP = """from vllm.v1.worker.gpu.sample.logits_processor import LogitsProcessor


class Clamp(LogitsProcessor):
    def apply(self, logits, ctx):
        return logits
"""

# The 0.11.2 README's full `train_ppo_ray` launch (its only one that starts engines), with the two
# flags 0.11.2's parser no longer has replaced by the one it has.
OPENRLHF_SCRIPT = ForkScript(
    "openrlhf-0.11.2/METADATA.L493.sh",
    "   --prompt_max_len 1024 \\\n   --data.max_samples 100000 \\\n   --generate_max_len 1024 \\\n",
    "   --data.max_len 2048 \\\n   --data.max_samples 100000 \\\n",
)

EDITS = (
    SourceEdit("raw-logprobs", "verl", "0.9.1", VERL_ROLLOUT, "logprobs_mode: processed_logprobs", "logprobs_mode: raw_logprobs"),
    SourceEdit("no-logprobs-mode", "verl", "0.9.1", VERL_ROLLOUT, "logprobs_mode: processed_logprobs", "logprobs_mode: null"),
    SourceEdit("bounded-top-k", "verl", "0.9.1", VERL_ROLLOUT, "top_k: -1", "top_k: 20"),  # the rollout's and validation's
    SourceEdit(
        "processors",
        "verl",
        "0.9.1",
        VERL_ROLLOUT,
        "  vllm: {}",
        "  vllm:\n    logits_processors: ['fork_plugins:Clamp']",
        added=(("fork_plugins.py", CLAMP),),
    ),
    # The engine arguments verl's server builds (`vLLMHttpServer.launch_server`'s `args`).
    SourceEdit("server-mask", "verl", "0.9.1", VERL_SERVER, _SPREAD, _SPREAD + '            "return_sampling_mask": True,\n'),
    SourceEdit(
        "server-raw-logprobs", "verl", "0.9.1", VERL_SERVER, _LOGPROBS, _LOGPROBS.replace("self.config.logprobs_mode", '"raw_logprobs"')
    ),
    SourceEdit("server-no-logprobs-mode", "verl", "0.9.1", VERL_SERVER, _LOGPROBS, ""),
    SourceEdit(
        "server-writes-replay",
        "verl",
        "0.9.1",
        VERL_SERVER,
        _EXPERT,
        _EXPERT + '        args["return_sampling_mask"] = True\n        args["logprobs_mode"] = "processed_logprobs"\n',
    ),
    # SkyRL's `build_vllm_cli_args`: its `overrides`, set on vLLM's defaults before `engine_init_kwargs`.
    SourceEdit("engine-mask", "skyrl", "0.4.0", SKYRL_ENGINE_ARGS, _TRUSTED, _TRUSTED + "        return_sampling_mask=True,\n"),
    SourceEdit(
        "engine-processed-logprobs",
        "skyrl",
        "0.4.0",
        SKYRL_ENGINE_ARGS,
        _TRUSTED,
        _TRUSTED + '        logprobs_mode="processed_logprobs",\n',
    ),
    # OpenRLHF's `create_vllm_engines`: its engine dict, which the Ray actor hands `vllm.AsyncEngineArgs`.
    SourceEdit(
        "engines-mask",
        "openrlhf",
        "0.11.2",
        OPENRLHF_ENGINES,
        _SLEEP,
        _SLEEP + '            "return_sampling_mask": True,\n',
        script=OPENRLHF_SCRIPT,
    ),
    SourceEdit(
        "engines-mask-raw-logprobs",
        "openrlhf",
        "0.11.2",
        OPENRLHF_ENGINES,
        _SLEEP,
        _SLEEP + '            "return_sampling_mask": True,\n            "logprobs_mode": "raw_logprobs",\n',
        script=OPENRLHF_SCRIPT,
    ),
    SourceEdit(
        "actor-mask",
        "openrlhf",
        "0.11.2",
        OPENRLHF_ENGINES,
        "vllm.AsyncEngineArgs(*args, **self.kwargs)",
        "vllm.AsyncEngineArgs(*args, return_sampling_mask=True, **self.kwargs)",
        script=OPENRLHF_SCRIPT,
    ),
    SourceEdit(
        "engines-forced-raw",
        "openrlhf",
        "0.11.2",
        OPENRLHF_ENGINES,
        _CORRECTED,
        _CORRECTED + '        actor_kwargs["return_sampling_mask"] = True\n        actor_kwargs["logprobs_mode"] = "raw_logprobs"\n',
        script=OPENRLHF_SCRIPT,
    ),
)


def install(edit: SourceEdit, frameworks: Path) -> Path | None:
    """The edited copy of the release's package (made once); None when the release is not installed."""
    base, copy = frameworks / f"{edit.framework}-{edit.release}", frameworks / f"{edit.framework}-{edit.judged_as}"
    if not (base / edit.path).is_file():
        return None
    if not (copy / ".complete").exists():
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(base, copy, copy_function=os.link, ignore=shutil.ignore_patterns("__pycache__"))
        target = copy / edit.path
        text = target.read_text()
        target.unlink()  # a hard link to the release's own file
        target.write_text(edit.edited(text))
        for path, added in edit.added:
            (copy / path).write_text(added)
        (copy / ".complete").write_text("")
    return copy


def edited_file(edit: SourceEdit, frameworks: Path) -> str:
    return (frameworks / f"{edit.framework}-{edit.judged_as}" / edit.path).read_text()
