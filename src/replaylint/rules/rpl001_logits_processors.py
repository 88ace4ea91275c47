"""## What it does
Flags a launch that turns on sampling distribution replay (`return_sampling_mask`) and also
passes custom logits processors (`logits_processors` / `--logits-processors`).

## Why is this bad?
A custom logits processor changes the distribution after vLLM computes the sampling mask, so the
replayed mask would not describe what was sampled. vLLM refuses to start:
`sampling distribution replay does not support custom logits processors`.
In 0.28-0.30 the processors also make vLLM fall back to Model Runner V1, so the first error you
see there is RPL004's; this rule still tells you the second one.

It also flags a logits-processor plugin installed where a replay launch runs: an entry point of
the group `vllm.logits_processors` declared by the packaging of the launch's project
(`pyproject.toml`, `setup.cfg`, `setup.py`), of a folder its requirements install (`-e .`,
`./plugins/ban`), of a uv workspace member `uv sync` installs with it, or of a folder its
Dockerfile installs (`RUN pip install ./plugins/ban` in shell or exec form, `uv sync`, a wheel
built in an earlier stage, a venv or prefix brought by `COPY --from`), and, under `replaylint
preflight`, one installed in the serving environment. From 0.31 vLLM loads every
such plugin into every engine and its replay check reads only `logits_processors`, so nothing
stops the engine: the plugin silently shapes every returned mask. (0.28-0.30 count an installed
plugin as a custom logits processor, so replay falls back to Model Runner V1: RPL004.)
`vllm.general_plugins` entry points are not flagged.

## Example
```python
llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs",
          logits_processors=["my_pkg.procs:BanWords"])
```

## Use instead
```python
llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```
Apply the processor's effect in the trainer instead, or run the rollouts without replay.

## Fix safety
The fix removes the logits processors, and in Python the imports nothing else in the file uses.
It is unsafe: generation changes. A plugin gets no fix: uninstall it from the serving
environment, or move its entry point to another group.

## References
- vLLM `VllmConfig._verify_sampling_replay_config` (rule R4 of the replay spec)
- `vllm serve --logits-processors`
- vLLM 0.31-0.34 `_load_v2_logitsprocs_plugins` (`v1/worker/gpu/sample/logits_processor/loader.py`)
"""

from __future__ import annotations

from typing import Iterator

from ..model import Applicability, Fix, Launch, Plugin, RemoveSetting, Setting
from ..vllm import messages
from ..vllm.lax_values import is_truthy_list
from ..vllm.releases import Release
from .base import Invalid, Report, Rule, Valid, quote, sampling_mask, says

# Model Runner V2 loads installed plugins from 0.31 on (0.28-0.30 fall back to V1 with one: RPL004).
FIRST_LOADING_PLUGINS_ON_V2 = (0, 31)


class LogitsProcessorsWithSamplingMask(Rule):
    code = "RPL001"
    name = "logits-processors-with-sampling-mask"
    summary = "Custom logits processors cannot be combined with sampling distribution replay"
    vllm_message = messages.NO_CUSTOM_LOGITS_PROCESSORS
    fix_applicability = Applicability.UNSAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        mask = sampling_mask(launch)
        if mask is not None and release.series >= FIRST_LOADING_PLUGINS_ON_V2:
            yield from (self._plugin(plugin, mask) for plugin in launch.plugins)
        processors = launch.get("logits_processors")
        if mask is None or processors is None or is_truthy_list(processors.value) is not True:
            return
        yield Report(
            processors.span,
            f"{quote(processors)} with {quote(mask)}",
            says(self.vllm_message),
            Fix(self.fix_applicability, "Remove the logits processors", (RemoveSetting("logits_processors"),)),
            related=(mask.span,),
        )

    def _plugin(self, plugin: Plugin, mask: Setting) -> Report:
        return Report(
            plugin.span,
            f"`vllm.logits_processors` plugin `{plugin.name} = {plugin.target}` ({plugin.installed_by}) with {quote(mask)}",
            "loads every installed plugin of this group into every engine and its replay check does not look at them, "
            "so this one silently shapes every returned sampling mask",
            related=(mask.span, *plugin.install_spans()),
        )

    VALID = (
        # `vllm.general_plugins` may register anything: not a logits processor.
        Valid(
            "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n",
            filename="serve.sh",
            release="0.31.0",
            files={"pyproject.toml": '[project]\nname = "x"\n\n[project.entry-points."vllm.general_plugins"]\nx = "x:register"\n'},
        ),
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'),
        Valid('from vllm import LLM\nLLM("m", logits_processors=["a.b:C"])\n'),
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n    logits_processors=[])\n'),
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=False, logits_processors=["a.b:C"])\n'),
        # vLLM judge: an empty word becomes None, which ModelConfig refuses before the replay rules.
        Valid(
            "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --logits-processors ''\n",
            filename="serve.sh",
            release="0.31.0",
        ),
    )
    INVALID = (
        # A plugin the launch's own project declares: vLLM loads it and never checks.
        Invalid(
            "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n",
            filename="scripts/serve.sh",
            release="0.31.0",
            message="loads every installed plugin of this group into every engine",
            files={"setup.cfg": "[metadata]\nname = ban\n\n[options.entry_points]\nvllm.logits_processors =\n    ban = ban.procs:Ban\n"},
        ),
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    logits_processors=["a.b:C"])\n',
            message=messages.NO_CUSTOM_LOGITS_PROCESSORS,
            fixed='from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
        Invalid(
            "from vllm import LLM\nfrom procs import BanWords, Keep\nKeep()\n"
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs", logits_processors=[BanWords])\n',
            message=messages.NO_CUSTOM_LOGITS_PROCESSORS,
            fixed='from vllm import LLM\nfrom procs import Keep\nKeep()\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
        Invalid(  # a name the file still mentions (here `__all__`) keeps its import
            'from vllm import LLM\nfrom procs import BanWords\n__all__ = ["BanWords"]\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs", logits_processors=[BanWords])\n',
            message=messages.NO_CUSTOM_LOGITS_PROCESSORS,
            fixed='from vllm import LLM\nfrom procs import BanWords\n__all__ = ["BanWords"]\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
        Invalid(
            'import vllm as v\nPROCS = ["a.b:C"]\nv.EngineArgs(model="m", return_sampling_mask=1,\n'
            '    logprobs_mode="processed_logprobs", logits_processors=PROCS)\n',
            release="0.28.0",
            message=messages.NO_CUSTOM_LOGITS_PROCESSORS,
        ),
    )
