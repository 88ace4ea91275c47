"""## What it does
Flags a `vllm serve` (or `python -m vllm.entrypoints.openai.api_server`) launch, written in a
shell script (also as a `tmux new-session` command), a Dockerfile, a Kubernetes manifest, a
compose file, a SkyPilot task's `run:` script or a Python `subprocess` call (also a shell string
joined from a word list, `Popen(" ".join(cmd), shell=True)`), that asks for sampling masks without `--enable-scale-out` or `--tokens-only`, from vLLM
0.30 on. The offline `LLM`/`AsyncLLM` engines return masks with every output and are never
flagged, nor are servers that RL frameworks start themselves, nor `--headless` nodes (no API
server) and `--grpc` servers (gRPC only).

An engine that Ray Serve LLM serves with `build_openai_app` (`LLMConfig(engine_kwargs={...})`
with the mask, the config passed to the builder) is flagged too: Ray's `OpenAiIngress` serves
only OpenAI's routes, and no vLLM API server runs to open the mask's route. A config built by
`build_llm_deployment` behind an ingress of your own is not.

A client that talks to such a replay server (its address names the server's `--port`, vLLM's
default 8000) only through routes without masks is flagged too, whether the server opens the
scale-out route or not, in the same file or in another file of the tree (the server in
`scripts/serve.sh`, a compose file or a manifest, the client in `rollout.py`: the finding is at
the client, the server beside it): `openai.OpenAI(base_url=...)` (or the `openai` module after
`openai.base_url = ...`; or `OpenAI()` without `base_url`, which takes openai-python's
`OPENAI_BASE_URL` where the tree sets it: the module's own `os.environ` write before the client, or
a script, compose service or Kubernetes container near it that runs the program with it) with
`.completions.create`, `.chat.completions.create` or
`.responses.create` (or `.parse`, `.stream`, also through `.with_raw_response` or `.beta`), and a
`.post` (or `.request("POST", ...)`, `.stream("POST", ...)`) of `requests`, `httpx` or a session
to `/v1/completions`, `/v1/chat/completions`, `/v1/responses` or `/v1/messages`, given a whole
URL or a path under the session's `base_url`
(`httpx.Client(base_url=...)`, also in a `with`) (routes that generate nothing, such as
`/pause`, do not count), and a `urllib.request.Request` with data (a POST); a client copied with
`with_options(...)` keeps its address, and an address read from an environment variable with a
default (`os.environ.get("VLLM_PORT", "8001")`) is read with that default; LangChain's
`VLLMOpenAI` (completions) and `ChatOpenAI` (chat), and LiteLLM's `completion`/`text_completion` of a `hosted_vllm/` or `openai/` model with
`api_base=` (also a `Router`'s `acompletion(model="policy")` whose group `policy` in its
`model_list` is such a model at one `api_base`), DSPy's `dspy.LM("hosted_vllm/...", api_base=...)` (LiteLLM's chat
completions, or `/v1/completions` with `model_type="text"`); a TRL trainer in server mode talking to a `trl vllm-serve` with the
mask (TRL's client generates through `/v1/completions`: `generation/vllm_client.py:455`);
a client of SkyRL's standalone server (`python -m
skyrl.backends.skyrl_train.inference_servers.vllm_server_actor --port ...`, vLLM's words, its
default port 8000) that generates only through SkyRL's `/skyrl/v1/generate`; and
`/inference/v1/generate` asked for `output_mode="derender"` with
`parse_context.include_reasoning` false on a server with a reasoning or tool parser. A client
whose address is not known, or a tree where some client reads `/inference/v1/generate` (or a file
names that route where no client was read), is not flagged. Across files, a client is tied by
port and host: `localhost`, `127.0.0.1`, `0.0.0.0`, a compose service's name, `hostname:` or
`container_name:`, or the name of a Kubernetes Service that selects the server's pods on an
unchanged port (in its manifest, another YAML file of its folder, or one of the run's YAML files
in its repository) reach the server; `localhost` reaches a compose service only where it
publishes the port on itself (`"8000:8000"`; `"${PORT:-8000}:8000"` when `PORT` is unset, and
the message says so); another host, two servers on one port in the tree, or a port in a variable
(`--port $PORT`, `"${PORT}:8000"`; the default of `${PORT:-8001}` counts, and the message says so)
tie nothing. When the server's mask rests on a default (Make's `REPLAY ?= --return-sampling-mask`,
`${REPLAY:---return-sampling-mask}`), the client's finding says so too.

## Why is this bad?
vLLM starts, computes a mask for every sampled token and throws it away. The only HTTP route
with a `sampling_mask` field is the scale-out `/inference/v1/generate`
(`entrypoints/scale_out/token_in_token_out/protocol.py:520,557`, filled in `serving.py:520-531`);
`/v1/completions`, `/v1/chat/completions`, `/v1/responses`, the Anthropic and gRPC endpoints
have none. Without `--enable-scale-out` (or `--tokens-only`, which serves it always) vLLM
0.32 and later answer that route with HTTP 403 (`entrypoints/scale_out/factories.py:98-126`),
and 0.30-0.31 do not register it at all (only a log line says so). vLLM 0.28 and 0.29 register
it on every server, so they are not flagged.

SkyRL's `/skyrl/v1/generate` builds its own answer from the engine's output: `token_ids`,
`finish_reason`, `logprobs` and `routed_experts` in SkyRL 0.3.0
(`skyrl/backends/skyrl_train/inference_servers/vllm_server_actor.py:392-449`), and the packed
`rollout_sample_support` (top-k ids of the logprobs, not vLLM's mask) in 0.4.0 (`:543-627`);
no `sampling_mask`. SkyRL 0.4.0 opens `/inference/v1/generate` itself
(`cli_args.enable_scale_out = True`, `:696`). The servers SkyRL's trainers start (`main_base`,
`serve`) take ports found at run time (the first free one from 8000, on the node Ray picks):
no client is tied to them.

Even with the route open, a request with `output_mode="derender"` and `include_reasoning=false`
gets `sampling_mask: null` (`serving.py:560-572, 785-787`): vLLM hides per-token metadata when
the reasoning is hidden, on a server with a tool or reasoning parser
(`entrypoints/launchers/api_server/app_state.py:107-118`).

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

A client is not edited: the fix is on the server only.

## References
- vLLM `entrypoints/scale_out/factories.py` (`register_scale_out_api_routers`)
- vLLM `entrypoints/common/cli_args.py:212-222` (`tokens_only`, `enable_scale_out`)
- SkyRL `skyrl/backends/skyrl_train/inference_servers/vllm_server_actor.py` (`_add_custom_endpoints`, `main`)
"""

from __future__ import annotations

from typing import Iterator

from ..model import Applicability, Fix, Launch, SetSetting
from ..vllm import messages
from ..vllm.releases import Release
from ..vllm.unusable_masks import (
    MASK_ENDPOINT,
    OPENAI_INGRESS_ROUTES,
    RAY_SERVE_OPENAI,
    SCALE_OUT_GATE,
    client_gets_mask,
    clients_of,
    endpoint_switch,
    maskless_answer,
    serves_http,
)
from .base import Invalid, Report, Rule, Valid, quote, sampling_mask, says
from .requests_shape import server_mask, started_at

_SERVE = "vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs"
_STARTS = (
    "import subprocess\nimport httpx, requests\nfrom openai import OpenAI\n\n"
    'subprocess.Popen(["vllm", "serve", "Qwen/Qwen3-8B", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs",\n'
    '                  "--enable-scale-out", "--reasoning-parser", "qwen3", "--port", "8001"])\n'
)
_CHAT = (
    'client = OpenAI(base_url="http://localhost:8001/v1", api_key="EMPTY")\n\n'
    "def rollout(messages):\n"
    '    return client.chat.completions.create(model="Qwen/Qwen3-8B", messages=messages, logprobs=True)\n'
)
_GENERATE = (
    "def sample(ids, mode):\n"
    '    body = {"token_ids": ids, "sampling_params": {"top_k": 20}, "output_mode": mode}\n'
    '    return requests.post("http://127.0.0.1:8001/inference/v1/generate", json=body).json()\n'
)

_RAY_SERVE = (
    "from ray import serve\nfrom ray.serve.llm import LLMConfig, build_openai_app\n\n"
    'config = LLMConfig(model_loading_config={"model_id": "policy", "model_source": "Qwen/Qwen3-8B"},\n'
    '                   engine_kwargs={"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"})\n'
    'serve.run(build_openai_app({"llm_configs": [config]}))\n'
)

_DSPY = 'import dspy\n\nlm = dspy.LM("hosted_vllm/Qwen/Qwen3-8B", api_base="http://localhost:8001/v1", temperature=0.7)\n'
_LITELLM = (
    "import litellm\n\n"
    "def step(messages):\n"
    '    return litellm.completion(model="hosted_vllm/Qwen/Qwen3-8B", api_base="http://localhost:8001/v1", messages=messages)\n'
)


def _framework_server(launch: Launch) -> bool:
    """A replay server a framework starts for HTTP clients (`trl vllm-serve`, whose trainers read
    `/v1/completions`; SkyRL's standalone server), whose words are all known."""
    return launch.framework is not None and clients_of(launch) is not None and sampling_mask(launch) is not None and not launch.open_ended


_SKYRL = (
    "import subprocess, sys\nimport httpx\n\n"
    'subprocess.Popen([sys.executable, "-m", "skyrl.backends.skyrl_train.inference_servers.vllm_server_actor",\n'
    '                  "--model", "Qwen/Qwen3-8B", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"])\n'
    'http = httpx.Client(base_url="http://localhost:8000", timeout=600)\n\n'
    "def sample(ids):\n"
    '    return http.post("{route}", json={{"token_ids": ids, "sampling_params": {{"top_k": 20}}}}).json()\n'
)
_SESSION = (
    'http = httpx.Client(base_url="http://127.0.0.1:8001", timeout=600)\n\n'
    "def sample(body):\n"
    '    return http.post("{route}", json=body).json()\n'
)


class MasksNeverReturned(Rule):
    code = "RPL301"
    name = "sampling-masks-never-returned"
    summary = "A replay server without --enable-scale-out: no endpoint returns the masks it computes"
    severity = "warning"
    since = SCALE_OUT_GATE
    vllm_message = messages.SCALE_OUT_DISABLED
    fix_applicability = Applicability.UNSAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        if launch.entrypoint == RAY_SERVE_OPENAI:
            yield from self._openai_ingress(launch)
            return
        mask = server_mask(launch)
        if mask is None and _framework_server(launch):
            yield from self._clients(launch)
        if mask is None or serves_http(launch) is not True:
            return
        yield from self._clients(launch)
        if endpoint_switch(launch) is not False:
            return
        switch = launch.get("enable_scale_out")
        said = messages.SCALE_OUT_DISABLED if release >= Release(0, 32) else messages.SCALE_OUT_DISABLED_LOGGED
        without = f"with {quote(switch)}" if switch is not None else "without --enable-scale-out"
        written = switch is not None and not switch.implied  # `--no-enable-scale-out`: the line that decides
        yield Report(
            switch.span if written else mask.span,  # type: ignore[union-attr]
            f"{quote(mask)} on a server {without}: the masks are computed and never returned, since only "
            f"{MASK_ENDPOINT} has a sampling_mask field and it is closed",
            says(said),
            Fix(self.fix_applicability, "Add --enable-scale-out", (SetSetting("enable_scale_out", True),)),
            related=(mask.span,) if written else (switch.span,) if switch is not None else (),
            absent=switch is None,
        )

    def _openai_ingress(self, launch: Launch) -> Iterator[Report]:
        """An engine Ray Serve LLM's `build_openai_app` serves: only OpenAI's routes answer."""
        mask = sampling_mask(launch)
        if mask is None or launch.open_ended:
            return
        yield Report(
            mask.span,
            f"{quote(mask)} in an engine that Ray Serve LLM's build_openai_app serves behind its OpenAiIngress, whose "
            f"routes are only {OPENAI_INGRESS_ROUTES} (ray/serve/llm/ingress.py), none with a sampling_mask field",
            f"computes masks that never leave the engine: its only route with one is {MASK_ENDPOINT}, which only "
            "`vllm serve` opens (with --enable-scale-out); serve the engine that way, or read the masks in process",
        )

    def _clients(self, launch: Launch) -> Iterator[Report]:
        """The file's clients of this server, when none of them reads the masks back."""
        generating = [request for request in launch.clients if client_gets_mask(request, launch) is not None]
        if not generating or any(client_gets_mask(request, launch) is not False for request in generating):
            return
        for request in generating:
            where = request.span
            if request.endpoint == MASK_ENDPOINT:
                why = 'asks for output_mode="derender" with the reasoning hidden, which sets sampling_mask to null'
                instead = 'output_mode "tokens" or "text", or include_reasoning true'
                where = request.settings["include_reasoning"].span  # what hides them
            else:
                answer = maskless_answer(request, launch)
                why = f"reads {request.endpoint}, which has no sampling_mask field" + (f" ({answer})" if answer else "")
                instead = MASK_ENDPOINT if endpoint_switch(launch) is True else f"{MASK_ENDPOINT} with --enable-scale-out"
                mode = request.settings.get("vllm_mode")  # a TRL trainer: `vllm_mode="server"` makes it this client
                if mode is not None:  # TRL 1.16, the edition that forwards the mask, adds --enable-scale-out itself
                    instead = f"a client of your own of {MASK_ENDPOINT}, which `trl vllm-serve` opens (trl/scripts/vllm_serve.py:266-267)"
                where = mode.span if mode is not None else where
            yield Report(
                where,
                f"This client of the replay server started at {started_at(launch, request)} {why}",
                f"computes masks that never reach it; use {instead}",
                related=(launch.span,),
            )

    VALID = (
        Valid(
            _RAY_SERVE.replace('build_openai_app({"llm_configs": [config]})', "build_llm_deployment(config)"), release="0.34.0"
        ),  # an ingress of your own
        Valid(_RAY_SERVE.replace('"return_sampling_mask": True, ', ""), release="0.34.0"),  # no mask
        Valid(_RAY_SERVE.replace("engine_kwargs=", 'server_cls="SGLangServer", engine_kwargs='), release="0.34.0"),  # not vLLM
        Valid(_STARTS + _CHAT + _GENERATE, release="0.34.0"),  # the masks are read through the scale-out route
        Valid(_STARTS + _CHAT.replace("8001", "8002"), release="0.34.0"),  # another server
        Valid(_STARTS + _CHAT.replace('base_url="http://localhost:8001/v1"', 'base_url=os.environ["VLLM_URL"]'), release="0.34.0"),
        Valid(
            _STARTS.replace('"--reasoning-parser", "qwen3", ', "")
            + _GENERATE.replace("mode}", 'mode, "parse_context": {"include_reasoning": False}}'),
            release="0.34.0",
        ),
        Valid(
            _STARTS.replace('"--reasoning-parser", "qwen3", ', "")
            + _GENERATE.replace('"output_mode": mode}', '"output_mode": "derender", "parse_context": {"include_reasoning": False}}'),
            release="0.34.0",
        ),  # no parser on the server: nothing is hidden
        Valid(_SERVE + " --enable-scale-out\n", filename="serve.sh"),
        Valid(_SERVE + " --tokens-only\n", filename="serve.sh"),
        Valid(_SERVE + "\n", filename="serve.sh", release="0.29.0"),
        Valid(_SERVE + " $EXTRA_ARGS\n", filename="serve.sh"),
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'),
        Valid("vllm serve Qwen/Qwen3-8B --logprobs-mode processed_logprobs\n", filename="serve.sh"),
        Valid(_SERVE + " --headless --data-parallel-size 2\n", filename="serve.sh"),
        Valid(_STARTS + _SESSION.format(route="/inference/v1/generate"), release="0.34.0"),  # the session's base names the server
        Valid(_STARTS + _SESSION.format(route="/v1/completions").replace("8001", "8002"), release="0.34.0"),  # another server
        Valid(_SKYRL.format(route="/inference/v1/generate"), release="0.32.0"),  # SkyRL's server: the masks' route
        Valid(_SKYRL.format(route="/skyrl/v1/load_lora_adapter"), release="0.32.0"),  # a SkyRL route that generates nothing
        Valid(_STARTS + _SESSION.format(route="/skyrl/v1/generate"), release="0.34.0"),  # vLLM's own server: no such route known
        Valid(_STARTS + _LITELLM.replace("hosted_vllm/", "anthropic/"), release="0.34.0"),  # another provider: not this server
        Valid(_STARTS + _DSPY.replace("8001", "8002"), release="0.34.0"),  # another server's port
        Valid(_STARTS + 'import urllib.request\nurllib.request.urlopen(urllib.request.Request("http://localhost:8001/v1/models"))\n'),
        Valid(_STARTS + 'def models():\n    return requests.request("GET", "http://localhost:8001/v1/models").json()\n'),
    )
    INVALID = (
        Invalid(_STARTS + _CHAT, release="0.34.0", message="reads /v1/chat/completions, which has no sampling_mask field"),
        Invalid(_RAY_SERVE, release="0.34.0", message="Ray Serve LLM's build_openai_app serves behind its OpenAiIngress"),
        Invalid(
            _STARTS.replace(', "--port", "8001"', "") + "PORT = 8000\n"
            'def complete(prompt):\n    return httpx.post(f"http://localhost:{PORT}/v1/completions", json={"prompt": prompt})\n',
            release="0.34.0",
            message="reads /v1/completions",
        ),
        Invalid(
            _STARTS
            + _GENERATE.replace('"output_mode": mode}', '"output_mode": "derender", "parse_context": {"include_reasoning": False}}'),
            release="0.34.0",
            message="sets sampling_mask to null",
        ),
        Invalid(_STARTS + _SESSION.format(route="/v1/completions"), release="0.34.0", message="reads /v1/completions"),
        Invalid(
            _SKYRL.format(route="/skyrl/v1/generate"), release="0.32.0", message="reads /skyrl/v1/generate, which has no sampling_mask"
        ),
        Invalid(
            _STARTS + "async def chat(body):\n"
            '    async with httpx.AsyncClient(base_url="http://localhost:8001") as client:\n'
            '        return await client.post("/v1/chat/completions", json=body)\n',
            release="0.34.0",
            message="reads /v1/chat/completions",
        ),
        Invalid(
            _SERVE + "\n",
            filename="serve.sh",
            release="0.31.0",
            message=messages.SCALE_OUT_DISABLED_LOGGED,
            fixed=_SERVE.replace("--return-sampling-mask", "--return-sampling-mask --enable-scale-out") + "\n",
        ),
        Invalid(_STARTS + _LITELLM, release="0.34.0", message="reads /v1/chat/completions"),
        Invalid(_STARTS + _DSPY, release="0.34.0", message="reads /v1/chat/completions"),
        Invalid(
            _STARTS + "from litellm import Router\n\n"
            'router = Router(model_list=[{"model_name": "policy",\n'
            '                             "litellm_params": {"model": "hosted_vllm/Qwen/Qwen3-8B", "api_base": "http://localhost:8001/v1"}}])\n'
            'async def step(messages):\n    return await router.acompletion(model="policy", messages=messages)\n',
            release="0.34.0",
            message="reads /v1/chat/completions",
        ),
        Invalid(
            _STARTS + _CHAT.replace('api_key="EMPTY")', 'api_key="EMPTY").with_options(max_retries=3)'),
            release="0.34.0",
            message="reads /v1/chat/completions",
        ),
        Invalid(
            _STARTS
            + "import os\n"
            + _CHAT.replace("localhost:8001", "localhost:{os.getenv('VLLM_PORT', '8001')}").replace("(base_url=", "(base_url=f"),
            release="0.34.0",
            message="reads /v1/chat/completions",
        ),
        Invalid(
            _STARTS + "import json, urllib.request\n\ndef ask(body):\n"
            '    request = urllib.request.Request("http://localhost:8001/v1/completions", data=json.dumps(body).encode())\n'
            "    return urllib.request.urlopen(request)\n",
            release="0.34.0",
            message="reads /v1/completions",
        ),
        Invalid(
            _STARTS + "from langchain_community.llms import VLLMOpenAI\n"
            'llm = VLLMOpenAI(openai_api_base="http://localhost:8001/v1", model_name="Qwen/Qwen3-8B", model_kwargs={"top_k": 20})\n',
            release="0.34.0",
            message="reads /v1/completions",
        ),
        Invalid(_SERVE + " --no-enable-scale-out\n", filename="serve.sh", release="0.34.0", message=messages.SCALE_OUT_DISABLED),
        Invalid(
            _STARTS + _CHAT.replace("client.chat.completions.create", "client.chat.completions.with_raw_response.create"),
            release="0.34.0",
            message="reads /v1/chat/completions",
        ),
        Invalid(_STARTS + _CHAT.replace("chat.completions.create", "beta.chat.completions.parse"), release="0.34.0", message="/v1/chat"),
        Invalid(_STARTS + "import openai\n" + _CHAT.replace("OpenAI(", "openai.Client("), release="0.34.0", message="/v1/chat"),
        Invalid(
            _STARTS + 'import openai\nopenai.base_url = "http://localhost:8001/v1/"\n\n'
            'def ask(messages):\n    return openai.chat.completions.create(model="m", messages=messages)\n',
            release="0.34.0",
            message="reads /v1/chat/completions",
        ),
        Invalid(
            _STARTS + 'def complete(body):\n    return requests.request("POST", "http://localhost:8001/v1/completions", json=body)\n',
            release="0.34.0",
            message="reads /v1/completions",
        ),
        Invalid(
            _STARTS + "async def chat(body):\n    async with httpx.AsyncClient() as client:\n"
            '        async with client.stream("POST", "http://localhost:8001/v1/chat/completions", json=body) as answer:\n'
            "            return [line async for line in answer.aiter_lines()]\n",
            release="0.34.0",
            message="reads /v1/chat/completions",
        ),
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
