"""## What it does
Preview rule, off by default (select it with `RPL307`). Flags a `vllm serve` launch with
sampling distribution replay that reads the model's `generation_config.json` for the default
sampling parameters: `--generation-config` not set (its default is `auto`) or set to `auto`.
When the tree holds the model's folder and its `generation_config.json` sets none of the
sampling fields, nothing is filled and the launch is not flagged; when it sets some, the
message names them.

## Why is this bad?
Every field left unset in a request the server renders is filled from the model's file
(`config/model.py:1884-1940`, `get_diff_sampling_param`; `openai/completion/protocol.py:367-375`:
"Priority: user -> server default -> OpenAI default"; the render endpoints that build the
`/inference/v1/generate` bodies carrying the mask do the same, `entrypoints/scale_out/render/serving.py:107-178`;
a body the client writes itself takes only `max_tokens` from them, `token_in_token_out/serving.py:386-397`): `repetition_penalty`, `temperature`,
`top_k`, `top_p`, `min_p`. A model whose file sets a repetition penalty shifts every
distribution the masks describe (RPL302), and a `temperature` or `top_k` the client did not send
is not the one its trainer replays with. vLLM only logs
`Default vLLM sampling parameters have been overridden by the model's generation_config.json`.
It is a preview rule because replaylint cannot read the model's file unless the tree holds it:
many models set nothing that matters.

## Example
```shell
vllm serve Qwen/Qwen2.5-7B-Instruct --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
```

## Use instead
```shell
vllm serve Qwen/Qwen2.5-7B-Instruct --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out \\
  --generation-config vllm
```
and send every sampling parameter the trainer replays with.

## Fix safety
The fix sets `--generation-config vllm`. It is unsafe: requests that relied on the model's
defaults sample differently.

## References
- vLLM `config/model.py:372` (`generation_config: str = "auto"`)
- vLLM `config/model.py` (`ModelConfig.get_diff_sampling_param`)
"""

from __future__ import annotations

from typing import Iterator

from ..model import Applicability, Fix, Launch, SetSetting
from ..vllm import messages
from ..vllm.releases import Release
from .base import Invalid, Report, Rule, Valid, quote, says
from .requests_shape import server_mask

_SERVE = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"


class GenerationConfigDefaults(Rule):
    code = "RPL307"
    name = "replay-generation-config-defaults"
    summary = "A replay server fills unset request fields from the model's generation_config.json"
    severity = "warning"
    preview = True
    vllm_message = messages.GENERATION_CONFIG_OVERRIDDEN
    fix_applicability = Applicability.UNSAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        mask = server_mask(launch)
        if mask is None:
            return
        source = launch.get("generation_config")
        if source is not None and source.value != "auto":
            return
        defaults = launch.generation_defaults
        if defaults == ():
            return  # the model's file sets no sampling field (`get_diff_sampling_param` finds none)
        fix = Fix(self.fix_applicability, "Set --generation-config vllm", (SetSetting("generation_config", "vllm", after="logprobs_mode"),))
        what = f"{quote(source)}" if source is not None else "--generation-config defaulting to 'auto'"
        filled = (
            "from the model's generation_config.json, penalties included"
            if not defaults
            else f"from the model's generation_config.json ({', '.join(quote(each) for each in defaults)})"
        )
        yield Report(
            source.span if source is not None else mask.span,
            f"{quote(mask)} with {what}: request fields left unset are filled {filled}",
            says(self.vllm_message),
            fix,
            related=(mask.span, *(each.span for each in defaults or ())),
            absent=source is None,
        )

    VALID = (
        Valid(_SERVE + " --generation-config vllm\n", filename="serve.sh"),
        Valid(_SERVE + " --generation-config ./my-generation-config\n", filename="serve.sh"),
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'),
    )
    INVALID = (
        Invalid(
            _SERVE + "\n",
            filename="serve.sh",
            message="generation_config.json",
            fixed=_SERVE.replace("processed_logprobs", "processed_logprobs --generation-config vllm") + "\n",
        ),
        Invalid(_SERVE + " --generation-config auto\n", filename="serve.sh", message="`--generation-config auto`"),
    )
