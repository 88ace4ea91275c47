"""## What it does
Flags a `vllm serve` (or `python -m vllm.entrypoints.openai.api_server`) launch, written in a
shell script, a Dockerfile, a Kubernetes manifest, a compose file or a Python `subprocess`
call, that asks for sampling masks without `--enable-scale-out` or `--tokens-only`, from vLLM
0.30 on. The offline `LLM`/`AsyncLLM` engines return masks with every output and are never
flagged, nor are servers that RL frameworks start themselves, nor `--headless` nodes (no API
server) and `--grpc` servers (gRPC only).

## Why is this bad?
vLLM starts, computes a mask for every sampled token and throws it away. The only HTTP route
with a `sampling_mask` field is the scale-out `/inference/v1/generate`
(`entrypoints/scale_out/token_in_token_out/protocol.py:520,557`, filled in `serving.py:520-531`);
`/v1/completions`, `/v1/chat/completions`, `/v1/responses`, the Anthropic and gRPC endpoints
have none. Without `--enable-scale-out` (or `--tokens-only`, which serves it always) vLLM
0.32 and later answer that route with HTTP 403 (`entrypoints/scale_out/factories.py:98-126`),
and 0.30-0.31 do not register it at all (only a log line says so). vLLM 0.28 and 0.29 register
it on every server, so they are not flagged.

Even with the route open, a request with `output_mode="derender"` and `include_reasoning=false`
gets `sampling_mask: null` (`serving.py:560-572, 785-787`): vLLM hides per-token metadata when
the reasoning is hidden.

## Example
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs
```

## Use instead
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
```
and read the masks from `POST /inference/v1/generate`.

## Fix safety
The fix adds `--enable-scale-out`. It is unsafe: it also opens `/render`, `/derender` and
`/inference/v1/abort_requests` on the server, which a deployment may not want exposed. A launch
whose words are not all known (`$EXTRA_ARGS`) is not flagged.

## References
- vLLM `entrypoints/scale_out/factories.py` (`register_scale_out_api_routers`)
- vLLM `entrypoints/common/cli_args.py:212-222` (`tokens_only`, `enable_scale_out`)
"""

from __future__ import annotations

from typing import Iterator

from ..model import Applicability, Fix, Launch, SetSetting
from ..vllm import messages
from ..vllm.releases import Release
from ..vllm.unusable_masks import MASK_ENDPOINT, SCALE_OUT_GATE, endpoint_switch, is_server, serves_http
from .base import Invalid, Report, Rule, Valid, quote, sampling_mask, says

_SERVE = "vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs"


class MasksNeverReturned(Rule):
    code = "RPL301"
    name = "sampling-masks-never-returned"
    summary = "A replay server without --enable-scale-out: no endpoint returns the masks it computes"
    severity = "warning"
    since = SCALE_OUT_GATE
    vllm_message = messages.SCALE_OUT_DISABLED
    fix_applicability = Applicability.UNSAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        mask = sampling_mask(launch)
        if mask is None or not is_server(launch) or launch.open_ended or serves_http(launch) is not True:
            return
        if endpoint_switch(launch) is not False:
            return
        switch = launch.get("enable_scale_out")
        said = messages.SCALE_OUT_DISABLED if release >= Release(0, 32) else messages.SCALE_OUT_DISABLED_LOGGED
        without = f"with {quote(switch)}" if switch is not None else "without --enable-scale-out"
        yield Report(
            mask.span,
            f"{quote(mask)} on a server {without}: the masks are computed and never returned, since only "
            f"{MASK_ENDPOINT} has a sampling_mask field and it is closed: {says(said)}",
            Fix(self.fix_applicability, "Add --enable-scale-out", (SetSetting("enable_scale_out", True),)),
            related=(switch.span,) if switch is not None else (),
            absent=switch is None,
        )

    VALID = (
        Valid(_SERVE + " --enable-scale-out\n", filename="serve.sh"),
        Valid(_SERVE + " --tokens-only\n", filename="serve.sh"),
        Valid(_SERVE + "\n", filename="serve.sh", release="0.29.0"),
        Valid(_SERVE + " $EXTRA_ARGS\n", filename="serve.sh"),
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'),
        Valid("vllm serve Qwen/Qwen3-8B --logprobs-mode processed_logprobs\n", filename="serve.sh"),
        Valid(_SERVE + " --headless --data-parallel-size 2\n", filename="serve.sh"),
    )
    INVALID = (
        Invalid(
            _SERVE + "\n",
            filename="serve.sh",
            release="0.31.0",
            message=messages.SCALE_OUT_DISABLED_LOGGED,
            fixed=_SERVE.replace("--return-sampling-mask", "--return-sampling-mask --enable-scale-out") + "\n",
        ),
        Invalid(_SERVE + " --no-enable-scale-out\n", filename="serve.sh", release="0.34.0", message=messages.SCALE_OUT_DISABLED),
        Invalid(
            'FROM vllm/vllm-openai:v0.34.0\nCMD ["Qwen/Qwen3-8B", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]\n',
            filename="Dockerfile",
            release="0.34.0",
            message="never returned",
        ),
        Invalid(
            "import subprocess, sys\n"
            'subprocess.run([sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", "m",\n'
            '                "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"])\n',
            release="0.32.0",
            message=messages.SCALE_OUT_DISABLED,
        ),
    )
