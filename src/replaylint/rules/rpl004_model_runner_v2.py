"""## What it does
Flags a launch with sampling distribution replay that runs on Model Runner V1 (vLLM 0.28-0.33;
0.34.0 removed Model Runner V1 and this check, see RPL206 for the variable there):
`VLLM_USE_V2_MODEL_RUNNER=0` (unless a setting forces V2 anyway), or a setting that makes the
judged vLLM release fall back to V1 silently when the variable is unset: dual batch overlap
(`enable_dbo`, `ubatch_size > 1` from 0.30), speculative methods only V1 implements (ngram up to
0.31, suffix, custom classes, ...), stock `torch.compile`, sequence parallelism, elastic expert
parallelism, custom logits processors or an installed `vllm.logits_processors` plugin
(0.28-0.30), prompt embeds (0.28), KV sharing fast
prefill (0.28-0.29), mamba cache mode `all` (0.30-0.31) and the rest of the spec's table. The
message names the setting responsible.

When `VLLM_USE_V2_MODEL_RUNNER=1` forces V2 and such a feature is present, vLLM starts the
replay checks on V2 and then stops with `Model Runner V2 does not yet support: <features>`;
that is reported here too.

## Why is this bad?
Only Model Runner V2 produces sampling masks. vLLM refuses to start:
`sampling distribution replay requires Model Runner V2`. The fallback to V1 is announced only
as a warning, so the error looks unrelated to the setting that caused it.

## Example
```dockerfile
ENV VLLM_USE_V2_MODEL_RUNNER=0
CMD ["--model", "Qwen/Qwen3-8B", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]
```

## Use instead
```dockerfile
CMD ["--model", "Qwen/Qwen3-8B", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]
```

## Fix safety
Removing `VLLM_USE_V2_MODEL_RUNNER=0` is safe: V2 is the default runner and the only one
replay works with. Removing dual batch overlap, elastic expert parallelism, prompt embeds or
KV sharing fast prefill is unsafe (behaviour changes). Other causes get no automatic fix.

## References
- vLLM `VllmConfig.use_v2_model_runner` and `_get_v2_model_runner_unsupported_features`
- The replay spec, section 4 (runner selection per release)
"""

from __future__ import annotations

from typing import Iterator

from ..model import PLUGIN_SETTING, Applicability, Fix, Launch, Plugin, RemoveEnv, RemoveSetting, Setting, Span
from ..vllm import messages
from ..vllm.engine_fields import RUNNER_ENV
from ..vllm.releases import Release
from ..vllm.runner import RunnerChoice, choose_runner
from .base import Invalid, Report, Rule, Valid, quote, sampling_mask, says

# Features whose removal keeps the launch meaningful; their fix is offered as unsafe.
_REMOVABLE = {
    "enable_dbo": "dual batch overlap",
    "enable_elastic_ep": "elastic expert parallelism",
    "enable_prompt_embeds": "prompt embeds",
    "kv_sharing_fast_prefill": "KV sharing fast prefill",
}


def _plugin(launch: Launch, setting: Setting) -> Plugin | None:
    """The installed plugin a setting stands for (`Plugin.as_setting`)."""
    if setting.name != PLUGIN_SETTING:
        return None
    return next(plugin for plugin in launch.plugins if plugin.span == setting.span)


def _related(launch: Launch, setting: Setting, mask: Setting) -> tuple[Span, ...]:
    """The mask, and the line that installs the plugin a setting stands for."""
    plugin = _plugin(launch, setting)
    return (mask.span, *(plugin.install_spans() if plugin else ()))


def _explained(launch: Launch, setting: Setting, reason: str) -> str:
    """`reason`, saying what an installed plugin that is its cause is and why it counts."""
    plugin = _plugin(launch, setting)
    if plugin is None:
        return reason
    what = (
        f"{quote(setting)}, a `vllm.logits_processors` plugin {plugin.installed_by} (vLLM counts every "
        "installed plugin of this group as a custom logits processor),"
    )
    return reason.replace(quote(setting), what, 1)


class SamplingMaskRequiresModelRunnerV2(Rule):
    code = "RPL004"
    name = "sampling-mask-requires-model-runner-v2"
    summary = "Sampling distribution replay needs Model Runner V2, which this launch does not get"
    vllm_message = messages.REQUIRES_V2
    fix_applicability = Applicability.SAFE
    until = Release(0, 33)  # 0.34.0 removed Model Runner V1 and this check (RPL206 takes the variable)

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        mask = sampling_mask(launch)
        if mask is None:
            return
        choice = choose_runner(launch, release)
        if choice.runner == "v1" and choice.setting is not None:
            reason = _explained(launch, choice.setting, choice.reason)
            related = _related(launch, choice.setting, mask)
            yield Report(choice.setting.span, reason, says(self.vllm_message), self._fix(choice), related)
            if choice.setting.name == RUNNER_ENV:
                # Removing the variable alone is not enough when a setting also falls back to V1.
                fallback = choose_runner(launch, release, ignore_env=True)
                if fallback.runner == "v1" and fallback.setting is not None:
                    reason = _explained(launch, fallback.setting, fallback.reason)
                    related = _related(launch, fallback.setting, mask)
                    yield Report(fallback.setting.span, reason, says(self.vllm_message), self._fix(fallback), related)
        elif choice.runner == "v2" and choice.forced and choice.unsupported:
            features = ", ".join(trigger.feature for trigger in choice.unsupported)
            first = choice.unsupported[0].setting
            cause = _explained(launch, first, f"{quote(first)} with {choice.reason}")
            yield Report(first.span, cause, says(messages.V2_UNSUPPORTED.format(features=features)), related=_related(launch, first, mask))
        elif choice.runner == "error" and choice.error == messages.HISPARSE_NEEDS_V2 and choice.setting is not None:
            yield Report(
                choice.setting.span,
                f"{quote(choice.setting)} with HiSparse",
                says(choice.error),
                Fix(Applicability.SAFE, f"Remove {RUNNER_ENV}=0", (RemoveEnv(RUNNER_ENV),)),
            )

    def _fix(self, choice: RunnerChoice) -> Fix | None:
        assert choice.setting is not None
        if choice.setting.name == RUNNER_ENV:
            return Fix(Applicability.SAFE, f"Remove {RUNNER_ENV}=0", (RemoveEnv(RUNNER_ENV),))
        if choice.setting.name in _REMOVABLE and len(choice.unsupported) == 1:
            return Fix(Applicability.UNSAFE, f"Turn off {_REMOVABLE[choice.setting.name]}", (RemoveSetting(choice.setting.name),))
        return None

    VALID = (
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'),
        Valid(
            'import os\nfrom vllm import LLM\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1"\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
        ),
        Valid(
            'import os\nfrom vllm import LLM\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs", watermark_config={"key": 1})\n',
            release="0.30.0",
        ),
        Valid('from vllm import LLM\nLLM("m", enable_dbo=True)\n'),
        Valid(
            'import os\nfrom vllm import LLM\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1"\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs", enable_dbo=True)\n',
        ),
        Valid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    speculative_config={"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3})\n',
            release="0.32.0",
        ),
        Valid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n    compilation_config=1)\n',
            release="0.32.0",
        ),
        # 0.28 runs prefill context parallelism on V2 for MLA models (DeepSeek V2/V3 ...); a name
        # that does not tell the architecture is given the benefit of the doubt.
        Valid(
            'from vllm import LLM\nLLM("deepseek-ai/DeepSeek-V3", return_sampling_mask=True,\n'
            '    logprobs_mode="processed_logprobs", prefill_context_parallel_size=2)\n',
            release="0.28.0",
        ),
        # The draft's config.json decides between draft_model, MTP, DFlash and DSpark.
        Valid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    speculative_config={"model": "org/my-draft", "num_speculative_tokens": 4})\n',
            release="0.30.0",
        ),
        Valid(
            "vllm serve org/model -pcp 2 --return-sampling-mask --logprobs-mode processed_logprobs\n", filename="serve.sh", release="0.28.0"
        ),
        Valid(
            "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs \\\n"
            "  --enable-dbo --all2all-backend deepep_low_latency -cc.cudagraph_mode PIECEWISE -O0\n",
            filename="serve.sh",
        ),
    )
    INVALID = (
        # 0.28-0.30 count an installed logits-processor plugin as a custom logits processor.
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
            release="0.30.0",
            message="counts every installed plugin of this group as a custom logits processor",
            files={"pyproject.toml": '[project]\nname = "ban"\n\n[project.entry-points."vllm.logits_processors"]\nban = "ban:Ban"\n'},
        ),
        Invalid(
            'import os\nfrom vllm import LLM\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs", enable_elastic_ep=True)\n',
            release="0.31.0",
            count=2,
            message=messages.REQUIRES_V2,
        ),
        Invalid(
            'import os\nfrom vllm import LLM\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
            message=messages.REQUIRES_V2,
            fixed='import os\nfrom vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n    enable_dbo=True)\n',
            message="`enable_dbo=True` makes vLLM fall back to Model Runner V1",
            fixed='from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    speculative_config={"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3})\n',
            release="0.31.0",
            message="Model Runner V2 does not yet support speculative method 'ngram'",
        ),
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n    compilation_config=1)\n',
            release="0.30.0",
            message="stock torch.compile",
        ),
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n    ubatch_size=2)\n',
            release="0.30.0",
            message=messages.REQUIRES_V2,
        ),
        Invalid(
            'import os\nfrom vllm import LLM\nos.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "1")\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs", enable_dbo=True,\n'
            "    pipeline_parallel_size=2)\n",
            message="Model Runner V2 does not yet support: dual batch overlap with pipeline parallelism",
        ),
        Invalid(
            'import os\nfrom vllm import LLM\nos.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "1")\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs", enable_dbo=True)\n',
            release="0.29.0",
            message="Model Runner V2 does not yet support: dual batch overlap",
        ),
        # vLLM judge: the features in vLLM's order (heterogeneous vocabularies before DBO's).
        Invalid(
            "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs \\\n"
            '  --enable-dbo -sc \'{"method": "draft_model", "model": "org/d", "num_speculative_tokens": 2,\n'
            '  "use_heterogeneous_vocab": true}\'\n',
            filename="serve.sh",
            message="Model Runner V2 does not yet support: heterogeneous-vocabulary draft models, "
            "dual batch overlap with speculative decoding",
        ),
        # vLLM judge: a draft of a plain model family without a method is a draft_model draft,
        # which 0.28-0.30 run on V1 only.
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    speculative_config={"model": "Qwen/Qwen3-0.6B", "num_speculative_tokens": 4})\n',
            release="0.30.0",
            message="Model Runner V2 does not yet support speculative method 'draft_model'",
        ),
        # vLLM judge: with the variable set, DBO is refused only next to some features; piecewise
        # CUDA graphs are one (unless nothing is captured: enforce_eager, -O0).
        Invalid(
            "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs \\\n"
            "  --enable-dbo --all2all-backend deepep_low_latency -cc.cudagraph_mode piecewise\n",
            filename="serve.sh",
            message="Model Runner V2 does not yet support: dual batch overlap with PIECEWISE CUDA graphs",
        ),
        # vLLM judge: 0.28 forces V2 for PCP > 1, then refuses it on a model without MLA.
        Invalid(
            "vllm serve meta-llama/Llama-3.1-8B -pcp 2 --return-sampling-mask --logprobs-mode processed_logprobs\n",
            filename="serve.sh",
            release="0.28.0",
            message="Model Runner V2 does not yet support: prefill context parallelism",
        ),
    )
