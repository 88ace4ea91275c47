"""## What it does
Flags a generate request to an engine with sampling distribution replay that does not set
`top_k > 0`: `SamplingParams(...)` without `top_k` (the default 0 means "disabled"), with
`top_k=0` or `top_k=-1`. `LLM.beam_search` never sets `top_k`, so it always fails.

The requests the tree sends over HTTP to a replay server it starts are read too (see RPL301 for
how a client is tied to its server), each with the default the server gives a `top_k` it
leaves out (vLLM 0.34.0):
- `/inference/v1/generate`: its `sampling_params` is a `SamplingParams` (`top_k: int = 0`,
  "Set to 0 (or -1) to consider all tokens.", `sampling_params.py:318-320`); the server fills
  only `max_tokens` from its defaults (`entrypoints/scale_out/token_in_token_out/serving.py:386-396`).
- `/v1/completions`, `/v1/chat/completions`, `/v1/responses`: "Priority: user -> server
  default -> OpenAI default" (`openai/completion/protocol.py:367`), the OpenAI default being
  `"top_k": 0` (`_DEFAULT_SAMPLING_PARAMS`, `:313-321`). The server default is the model's
  `generation_config.json` (`--generation-config auto`, the default) with
  `--override-generation-config` on top (`config/model.py:1884-1940`); it is known only when
  the server runs with `--generation-config vllm` ("If set to `"vllm"`, no generation config
  is loaded, vLLM defaults will be used.", `config/model.py:373-376`) or the tree holds the
  model's file. A request that leaves `top_k` out is flagged only then.
- A TRL trainer in server mode sends `top_k` with every request, its default 0 when the config
  does not set it (trl 1.16.0 `trainer/grpo_config.py:543-544`, `generation/vllm_client.py:436`),
  and a `top_k` the request gives is used as given.

A temperature in (0, 0.01) is not greedy: `SamplingParams.__post_init__` raises it to 0.01
before it looks for a greedy request (`sampling_params.py` 0.34.0:564-572, 0.28.0:476-484), so
its `top_k` stands (the replay spec's "(0, 1e-5) forces top_k to 0" does not happen; RPL309,
in preview, reports the raise).

## Why is this bad?
The mask lists the tokens the sampler could pick; without a top-k bound it may span the whole
vocabulary. vLLM rejects the request:
`sampling distribution replay requires top_k > 0 to bound sampling mask size, reduce transfer overhead, and avoid potential OOMs`.
With an explicit `SamplingParams`, `LLM.generate` does not apply the model's
`generation_config.json` defaults, so the request itself must carry `top_k`.

## Example
```python
llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
llm.generate(prompts, SamplingParams(temperature=1.0))
```

## Use instead
```python
llm.generate(prompts, SamplingParams(temperature=1.0, top_k=50))
```

## Fix safety
No automatic fix: the right `top_k` depends on the model and the training recipe.

## References
- vLLM `vllm/v1/engine/input_processor.py` (request rule Q2 of the replay spec)
- `SamplingParams.top_k` (default 0; -1 also means disabled)
- vLLM `entrypoints/openai/completion/protocol.py:313-321, 367` (the HTTP defaults)
- vLLM `config/model.py:1884-1940` (`get_diff_sampling_param`: `--generation-config`)
"""

from __future__ import annotations

from typing import Iterator

from ..model import UNKNOWN, Launch, Request
from ..vllm import messages
from ..vllm.releases import Release
from ..vllm.unusable_masks import MASK_ENDPOINT, number
from .base import Invalid, Report, Rule, Valid, as_number, quote, sampling_mask, says
from .requests_shape import Addressed, sent_requests
from .rpl101_greedy_request import ENGINE

# The OpenAI routes that fill an unset `top_k` from the server's defaults, else 0 (0.34.0).
_OPENAI_ROUTES = ("/v1/completions", "/v1/chat/completions", "/v1/responses")
_GENERATE_DEFAULT = (
    'SamplingParams\' default top_k is 0 (0.34.0 `sampling_params.py:318-320`: "Set to 0 (or -1) to consider all tokens."), '
    "and /inference/v1/generate fills only max_tokens from the server's defaults (`scale_out/token_in_token_out/serving.py:386-396`)"
)
_OPENAI_DEFAULT = 'the OpenAI default `"top_k": 0` (0.34.0 `openai/completion/protocol.py:313-321, 367`)'
_TRL_DEFAULT = "TRL sends its default top_k=0 with every request (trl 1.16.0 `grpo_config.py:543-544`, `vllm_client.py:436`)"
_SERVER = (
    "import subprocess, requests\n"
    'subprocess.Popen(["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"{more}])\n'
)


class ReplayRequestWithoutTopK(Rule):
    code = "RPL102"
    name = "replay-request-without-top-k"
    summary = "A request to a replay engine does not bound top_k"
    vllm_message = messages.REQUEST_TOP_K

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        if sampling_mask(launch) is None:
            return
        for request in launch.requests:
            if request.kind == "beam_search":
                yield Report(request.span, "beam search never sets top_k", says(self.vllm_message))
                continue
            top_k = request.settings.get("top_k")
            if top_k is None:
                if not request.open_ended:
                    message = "the request does not set top_k, which defaults to 0", says(self.vllm_message)
                    yield Report(request.span, *message, absent=True)
            elif top_k.value is not UNKNOWN and (value := as_number(top_k.value)) is not None and value <= 0:
                message = f"{quote(top_k)} in a request to a replay engine", says(self.vllm_message)
                yield Report(top_k.span, *message, absent=top_k.implied)  # a framework's default stands in
        for addressed in sent_requests(launch):
            yield from self._sent(addressed, launch)

    def _sent(self, addressed: Addressed, launch: Launch) -> Iterator[Report]:
        """A request over HTTP: its `top_k` at 0 or below, or left to a default that is 0."""
        request = addressed.request
        top_k = request.settings.get("top_k")
        if top_k is not None:
            value = number(top_k)
            if value is not None and value <= 0:
                subject = f"{quote(top_k)} in a request to {addressed.to}"
                yield Report(top_k.span, subject, says(self.vllm_message), related=addressed.related, absent=top_k.implied)
            return
        default = None if request.open_ended else _http_default(request, addressed.sender, launch)
        if default is not None:
            subject = f"the request to {addressed.to} does not set top_k: {default}"
            yield Report(request.span, subject, says(self.vllm_message), related=addressed.related, absent=True)

    VALID = (
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=0.7, top_k=20))\n'),
        Valid(
            _SERVER.format(more="")
            + 'requests.post("http://localhost:8000/inference/v1/generate", json={"token_ids": [1], "sampling_params": {"top_k": 20}})\n'
        ),
        Valid(  # the model's generation_config.json may set top_k: not known here
            _SERVER.format(more="") + 'requests.post("http://localhost:8000/v1/completions", json={"prompt": "hi", "temperature": 1.0})\n'
        ),
        Valid(
            _SERVER.format(more=', "--generation-config", "vllm", "--override-generation-config", \'{"top_k": 20}\'')
            + 'requests.post("http://localhost:8000/v1/chat/completions", json={"messages": []})\n'
        ),
        Valid(  # the body is spread from elsewhere
            _SERVER.format(more="")
            + 'requests.post("http://localhost:8000/inference/v1/generate", json={"token_ids": [1], "sampling_params": PARAMS})\n'
        ),
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=1e-6, top_k=50))\n'),  # raised to 0.01, not greedy
        Valid('from vllm import LLM, SamplingParams\nllm = LLM("m")\nllm.generate(["hi"], SamplingParams())\n'),
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(**cfg))\n'),
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(top_k=K))\n'),
    )
    INVALID = (
        Invalid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=1.0))\n', message=messages.REQUEST_TOP_K),
        Invalid(
            _SERVER.format(more="")
            + 'requests.post("http://localhost:8000/inference/v1/generate", json={"token_ids": [1], "sampling_params": {"temperature": 1.0}})\n',
            message="fills only max_tokens from the server's defaults",
        ),
        Invalid(
            _SERVER.format(more="")
            + "from openai import OpenAI\n"
            + 'client = OpenAI(base_url="http://127.0.0.1:8000/v1", api_key="EMPTY")\n'
            + 'client.completions.create(model="m", prompt="hi", extra_body={"top_k": -1})\n',
            message='`"top_k": -1` in a request to the replay server started at line 2',
        ),
        Invalid(
            _SERVER.format(more=', "--generation-config", "vllm"')
            + 'requests.post("http://localhost:8000/v1/chat/completions", json={"messages": [], "temperature": 0.8})\n',
            message="loads no generation config, so top_k is the OpenAI default",
        ),
        Invalid(ENGINE + 'llm.generate(["hi"], SamplingParams(top_k=-1))\n', message=messages.REQUEST_TOP_K),
        Invalid(
            ENGINE + "from vllm.sampling_params import BeamSearchParams\n"
            'llm.beam_search(["hi"], BeamSearchParams(beam_width=4, max_tokens=16, temperature=0.5))\n',
            message=messages.REQUEST_TOP_K,
        ),
    )


def _http_default(request: Request, sender: str, launch: Launch) -> str | None:
    """Why the `top_k` a request over HTTP leaves out is 0 on the server, or None when the
    server's default is not known to be 0."""
    if sender:  # a framework's own client: only TRL's is read (`unusable_masks.CLIENT_FRAMEWORKS`)
        return _TRL_DEFAULT if launch.framework is not None and launch.framework.package == "trl" else None
    if request.endpoint == MASK_ENDPOINT:
        return _GENERATE_DEFAULT
    if request.endpoint not in _OPENAI_ROUTES:
        return None
    override = launch.get("override_generation_config")
    if override is not None and not (isinstance(override.value, dict) and "top_k" not in override.value):
        return None  # the override sets top_k, or may
    source = launch.get("generation_config")
    if source is not None and source.value == "vllm":
        return f"{quote(source)} loads no generation config, so top_k is {_OPENAI_DEFAULT}"
    defaults = launch.generation_defaults
    if (source is None or source.value == "auto") and defaults is not None and not any(each.name == "top_k" for each in defaults):
        return f"the model's generation_config.json sets none, so top_k is {_OPENAI_DEFAULT}"
    return None
