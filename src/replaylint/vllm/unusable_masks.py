"""What vLLM accepts next to sampling distribution replay but a replay consumer cannot use (the
RPL3xx rules). Read in the 0.28.0-0.34.0 wheels; line numbers are 0.34.0's (docs/releases/)."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Any, Callable, Iterable, Iterator

from ..model import UNKNOWN, Launch, LaunchKind, Request, Setting, Span
from ..records import record
from ..served import ReplayServer, Served, distinct
from .lax_values import as_bool
from .releases import Release

# `vllm serve` and `python -m vllm.entrypoints.openai.api_server` answer over HTTP; the only
# route with a `sampling_mask` field is the scale-out `/inference/v1/generate`
# (`entrypoints/scale_out/token_in_token_out/protocol.py:520,557`). From 0.30.0 it answers 403
# unless `--enable-scale-out` or `--tokens-only` (`entrypoints/scale_out/factories.py:98-126`);
# 0.28.0 and 0.29.0 register it on every server.
SERVERS = frozenset(("serve", "api_server"))
DEFAULT_PORT = 8000  # `vllm serve` (0.34.0 `entrypoints/common/cli_args.py:296`: `port: int = 8000`)
SCALE_OUT_GATE = Release(0, 30)
MASK_ENDPOINT = "/inference/v1/generate"
# Ray Serve LLM's `build_openai_app`: an engine behind Ray's `OpenAiIngress`, whose routes are OpenAI's
# and Ray's own (ray-project/ray `python/ray/llm/_internal/serve/core/ingress/ingress.py`,
# `DEFAULT_ENDPOINTS`; `/tokenize` and `/detokenize` in newer releases); no vLLM API server opens the mask's route.
RAY_SERVE_OPENAI = "ray-serve-openai"
OPENAI_INGRESS_ROUTES = (
    "/v1/chat/completions, /v1/completions, /v1/models, /v1/models/{model}, /v1/embeddings, /v1/score, "
    "/v1/audio/transcriptions, /tokenize, /detokenize"
)
ENDPOINT_SWITCHES = ("enable_scale_out", "tokens_only")

# `use_penalty` (`v1/worker/gpu/sample/penalties.py:302-307`): a penalty away from these values
# changes the finite logits the mask keeps.
NEUTRAL_PENALTIES: dict[str, float] = {"repetition_penalty": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0}
LOGIT_BIAS = "logit_bias"

# `SamplingStates.add_request` (`v1/worker/gpu/sample/states.py:49-51`): `top_k > vocab_size`
# becomes no top-k. 2**18 is above every `vocab_size` default of vLLM 0.34.0's own config
# classes (`transformers_utils/configs/`, the largest 250,880), and at or above Gemma 3's 262,144.
BEYOND_EVERY_VOCABULARY = 2**18

# `rejection_sample_method` values that accept draft tokens without the target distribution
# (`config/speculative.py:610-618`), and the release each arrived in. Replay with speculative
# decoding exists from 0.32.0 (RPL002 before that).
LOSSY_VERIFICATION = {"synthetic": Release(0, 28), "fly": Release(0, 33)}
SPECULATIVE_REPLAY = Release(0, 32)

# `SamplingParams.__post_init__` (`sampling_params.py:564-572`): 0 < temperature < 0.01 is raised
# to 0.01 with a log line.
MIN_TEMPERATURE = 0.01

# `InputProcessor` (`v1/engine/input_processor.py:191-199`): a thinking budget on an engine without
# a reasoning config is refused. `--reasoning-parser` makes one (`engine/arg_utils.py:3148-3153`).
BUDGET_WITHOUT_REASONING = (
    "thinking_token_budget is set but reasoning_config is not configured. "
    "Please set --reasoning-parser and/or --reasoning-config to use thinking_token_budget."
)
REASONING_SETTINGS = ("reasoning_parser", "reasoning_config", "structured_outputs_config")


def without_reasoning(launch: Launch) -> bool:
    """Whether an engine whose words are all known has no reasoning config."""
    return not launch.open_ended and all(launch.value(name) in (None, "") for name in REASONING_SETTINGS)


def is_server(launch: Launch) -> bool:
    """A command that starts vLLM's HTTP server itself (not a framework's own server, an
    offline `LLM`, or a config file another command reads)."""
    return launch.entrypoint in SERVERS and launch.framework is None and launch.kind is not LaunchKind.FRAMEWORK


def serves_http(launch: Launch) -> Any:
    """Whether the server answers HTTP itself: not with `--headless` (no API server,
    `entrypoints/cli/serve.py:69-77`) nor `--grpc` (gRPC only, `serve.py:59-63`). UNKNOWN when
    either is not known."""
    values = [as_bool(setting.value) for name in ("headless", "grpc") if (setting := launch.get(name)) is not None]
    if any(value is True for value in values):
        return False
    return UNKNOWN if any(value is UNKNOWN for value in values) else True


def endpoint_switch(launch: Launch) -> Any:
    """Whether the launch opens `/inference/v1/generate`: True, False or UNKNOWN."""
    values = [as_bool(setting.value) for name in ENDPOINT_SWITCHES if (setting := launch.get(name)) is not None]
    if any(value is True for value in values):
        return True
    return UNKNOWN if any(value is UNKNOWN for value in values) else False


def number(setting: Setting | None) -> float | None:
    """A known number (not a bool) of a setting, else None."""
    if setting is None or setting.value is UNKNOWN or isinstance(setting.value, bool):
        return None
    if isinstance(setting.value, (int, float)):
        return float(setting.value)
    if isinstance(setting.value, str):
        try:
            return float(setting.value.strip())
        except ValueError:
            return None
    return None


def shifting_penalties(settings: dict[str, Setting] | Any) -> Iterator[Setting]:
    """Penalties away from neutral and a non-empty `logit_bias` with a bias other than 0 (the
    kernel adds each bias to its token's logit, `v1/worker/gpu/sample/logit_bias.py:225-236`),
    among known request values."""
    for name, neutral in NEUTRAL_PENALTIES.items():
        value = number(settings.get(name))
        if value is not None and value != neutral:
            yield settings[name]
    bias = settings.get(LOGIT_BIAS)
    if bias is None:
        return
    if isinstance(bias.value, dict) and not _all_zero(bias.value.values()) or bias.value is UNKNOWN and _entries_written(bias):
        yield bias


def _all_zero(biases: Iterable[Any]) -> bool:
    """Whether every bias is known to be 0 (an empty `logit_bias` too)."""
    return all(isinstance(bias, (int, float)) and not isinstance(bias, bool) and bias == 0 for bias in biases)


def _entries_written(setting: Setting) -> bool:
    """Whether a setting is written as a dict display with an entry of its own, not every bias
    written as 0 (`logit_bias={think_id: 5.0}`): non-empty whatever its keys turn out to be at
    run time."""
    written = setting.spelling.partition("=" if setting.spelling.startswith(setting.name) else ":")[2]
    try:
        node = ast.parse(written.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return False
    if not isinstance(node, ast.Dict) or not any(key is not None for key in node.keys):
        return False
    constants = [value.value for key, value in zip(node.keys, node.values) if key is not None and isinstance(value, ast.Constant)]
    return len(constants) != len(node.values) or not _all_zero(constants)


# The kind of a framework's request that holds only keys it sends to vLLM as written (SkyRL's
# `sampling_params.additional_kwargs`): open-ended, since the framework's other fields are elsewhere.
FORWARDED = "forwarded"


def own_requests(launch: Launch) -> Iterator[Request]:
    """Requests written in the tree to an engine it builds (`SamplingParams` to `LLM(...)`):
    frameworks' request settings are their configuration, which they may not send (verl 0.9.1's
    agent loop never sends `rollout.repetition_penalty`, SkyRL 0.3.0 drops it), but for the keys
    they forward as written (`FORWARDED`)."""
    if launch.framework is None and launch.kind is not LaunchKind.FRAMEWORK:
        yield from launch.requests
    else:
        yield from (request for request in launch.requests if request.kind == FORWARDED)


# Generation routes whose responses have no `sampling_mask` field (`entrypoints/openai/completion/`,
# `chat_completion/`, `responses/` and `entrypoints/anthropic/`, each `api_router.py` and
# `protocol.py`): a client generating only through these never sees the masks.
MASKLESS_ENDPOINTS = frozenset(("/v1/completions", "/v1/chat/completions", "/v1/responses", "/v1/messages"))
# With a tool or reasoning parser on the server (`--tool-call-parser`, `--reasoning-parser`:
# `entrypoints/launchers/api_server/app_state.py:107-118`, `renderers/online_derenderer.py:111-114`),
# `output_mode="derender"` with `parse_context.include_reasoning` false hides every per-token
# field, the mask included (`entrypoints/scale_out/token_in_token_out/serving.py:560-572`).
PARSERS = ("reasoning_parser", "tool_call_parser")


@record(unsafe_hash=True)
class ServerRoutes:
    """The generation routes a framework adds to vLLM's app on its own server that answer
    without a `sampling_mask` field, as one release's code shows them; `answer`: what they
    answer instead, and where (for messages). Its other routes (`/reset_prefix_cache`,
    `/skyrl/v1/load_lora_adapter`) generate nothing and count as any unknown route."""

    maskless: frozenset[str]
    answer: str


# SkyRL's standalone server (`frameworks/skyrl_server.py`), by (package, edition): vLLM's app with
# SkyRL's `_add_custom_endpoints` (`skyrl/backends/skyrl_train/inference_servers/vllm_server_actor.py`).
# `/skyrl/v1/generate` builds its answer itself from `engine.generate(...)`'s output (0.3.0
# `:392-449`, 0.4.0 `:543-627`); the sample support 0.4.0 packs (`return_sample_support`) is the
# top-k ids of `flat_logprobs` (`_sample_support_from_flat_logprobs`), not vLLM's mask.
FRAMEWORK_ROUTES: dict[tuple[str, str], ServerRoutes] = {
    ("skyrl", "0.4.0"): ServerRoutes(
        frozenset(("/skyrl/v1/generate",)),
        "SkyRL 0.4.0 answers token_ids, finish_reason, logprobs, routed_experts and rollout_sample_support, vllm_server_actor.py:543-627",
    ),
    ("skyrl", "0.3.0"): ServerRoutes(
        frozenset(("/skyrl/v1/generate",)),
        "SkyRL 0.3.0 answers token_ids, finish_reason, logprobs and routed_experts, vllm_server_actor.py:392-449",
    ),
}
# Framework servers that are vLLM's HTTP app with routes of the framework's added: any HTTP
# client reaches them as it reaches `vllm serve`.
HTTP_FRAMEWORKS = ("skyrl",)


def framework_routes(launch: Launch) -> tuple[ServerRoutes, ...]:
    """The routes of the framework server a launch starts, under the edition it follows, else
    under every edition read (empty: not such a server)."""
    framework = launch.framework
    if framework is None or launch.entrypoint not in SERVERS:
        return ()
    return tuple(
        routes
        for (package, edition), routes in FRAMEWORK_ROUTES.items()
        if package == framework.package and framework.edition in ("", edition)
    )


def maskless_answer(request: Request, launch: Launch) -> str:
    """What a framework's mask-less route answers instead, and where, for a message ("" for vLLM's own routes)."""
    answers = [routes.answer for routes in framework_routes(launch) if request.endpoint in routes.maskless]
    return "; ".join(answers)


def client_gets_mask(request: Request, launch: Launch) -> Any:
    """Whether a client's HTTP request to a replay server gets the masks back: False through a
    mask-less generation route (vLLM's, or one every edition of the framework server adds) or
    a derender with the reasoning hidden, True through `/inference/v1/generate`, UNKNOWN for a
    request whose route is not known, None for a route that generates nothing (`/pause`,
    `/health`) or that is not known to generate."""
    if request.endpoint in MASKLESS_ENDPOINTS:
        return False
    if not request.endpoint:
        return UNKNOWN
    routes = framework_routes(launch)
    if routes and all(request.endpoint in each.maskless for each in routes):
        return False
    if request.endpoint != MASK_ENDPOINT:
        return None
    mode, reasoning = request.settings.get("output_mode"), request.settings.get("include_reasoning")
    hidden = mode is not None and mode.value == "derender" and reasoning is not None and as_bool(reasoning.value) is False
    has_parser = any(launch.value(name) not in (None, UNKNOWN, "") for name in PARSERS)
    return not (hidden and has_parser)


def clients_of(launch: Launch) -> str | None:
    """Whose clients a server launch takes: "" any HTTP client's (vLLM's own server, SkyRL's
    standalone one), a framework's package for its own clients ("trl"), None for none we tie
    (a framework's launch that is no HTTP server of vLLM's words: SkyRL's trainers)."""
    framework = launch.framework
    if framework is None:
        return ""
    if launch.entrypoint not in SERVERS:
        return None
    if framework.package in HTTP_FRAMEWORKS:
        return ""
    return framework.package if framework.package in CLIENT_FRAMEWORKS else None


def server_port(launch: Launch, framework: str | None = None) -> int | None:
    """The port a `vllm serve` launch listens on, when it is known; `framework`: the package
    whose own clients reach it (None: any HTTP client's, `clients_of`)."""
    if launch.entrypoint not in SERVERS or clients_of(launch) != (framework or "") or launch.open_ended:
        return None
    port = launch.value("port", DEFAULT_PORT)
    try:
        return int(port) if port is not UNKNOWN and not isinstance(port, bool) else None
    except (TypeError, ValueError):
        return None


# What a server's clients are judged by (RPL301, RPL302, RPL102's HTTP defaults; the model and its
# overrides for RPL304's vocabulary): kept when a server is tied to clients in other files.
_SERVER_FIELDS = (
    "return_sampling_mask",
    *ENDPOINT_SWITCHES,
    "headless",
    "grpc",
    "port",
    *PARSERS,
    *REASONING_SETTINGS,
    "model",
    "hf_overrides",
    "generation_config",
    "override_generation_config",
)
# Frameworks whose own server takes HTTP clients from another program (`trl vllm-serve`, its trainers).
CLIENT_FRAMEWORKS = ("trl",)


def replay_port(launch: Launch) -> int | None:
    """The port of a replay server whose words are all known: vLLM's own, or a framework's own
    server (`trl vllm-serve`, SkyRL's standalone one), whose editions that ask for the mask agree
    on it (TRL 1.10 refuses the words 1.16 forwards, `--port` among them when the mask is one)."""
    framework, clients = launch.framework, clients_of(launch)
    if framework is None:
        return server_port(launch) if as_bool(launch.value("return_sampling_mask")) is True else None
    if clients is None:
        return None
    editions = [each for each in framework.editions.values() or (launch,) if each.get("return_sampling_mask") is not None]
    ports = {server_port(each, clients or None) for each in editions}
    return ports.pop() if len(ports) == 1 else None


def served(launches: list[Launch], context: Any, releases: Callable[[Launch], tuple[Release, ...]]) -> Served:
    """What a file says for tying clients to servers across files: its replay servers (judged
    against `releases`), the ports of its other servers, and what its check left in `context` (the
    `source.ExtractContext`, a layer above): its clients that no server of its own serves (or that
    it may hold some, left unread)."""
    servers = []
    for launch in launches:
        port = replay_port(launch)
        if port is not None and as_bool(launch.value("return_sampling_mask")) is True:
            servers.append(_server(launch, port, tuple(str(release) for release in releases(launch))))
    taken = {server.port for server in servers}
    ports = tuple(p for p in other_ports(launches) if p not in taken)
    return Served(distinct(servers), distinct(context.clients), context.reads_masks, ports, context.clients_unread)


def other_ports(launches: list[Launch]) -> tuple[int, ...]:
    """The ports of servers among `launches` that are no replay server with a known port: a
    client on one of them may talk to that server instead (`cross_file` ties it to nothing)."""
    ports = []
    for launch in launches:
        clients = clients_of(launch)
        port = server_port(launch, clients or None) if clients is not None else None
        if port is not None and not (replay_port(launch) == port and as_bool(launch.value("return_sampling_mask")) is True):
            ports.append(port)
    return tuple(dict.fromkeys(ports))


def _server(launch: Launch, port: int, releases: tuple[str, ...]) -> ReplayServer:
    kept = {name: setting for name in _SERVER_FIELDS if (setting := launch.get(name)) is not None}
    framework = replace(launch.framework, editions={}) if launch.framework is not None else None
    slim = Launch(
        launch.kind, launch.span, kept, label=launch.label, framework=framework, entrypoint=launch.entrypoint, clients=launch.clients
    )
    return ReplayServer(
        slim,
        port,
        launch.hosts,
        releases,
        _resting(launch, launch.get("port")),
        launch.local,
        launch.local_condition,
        _resting(launch, launch.get("return_sampling_mask"), whole=True),
    )


def _resting(launch: Launch, said: Setting | None, whole: bool = False) -> str:
    """The conditions of the defaults a setting's words come from (with `whole`, also those
    without which there would be no launch), joined with "and"."""
    spans = (said.span,) if said is not None else ()
    conditions = [
        a.condition for a in launch.assumptions if (whole and a.whole) or (a.span is not None and any(_overlap(a.span, s) for s in spans))
    ]
    return " and ".join(dict.fromkeys(conditions))


def _overlap(one: Span, other: Span) -> bool:
    return one.path == other.path and one.start < max(other.end, other.start + 1) and other.start < max(one.end, one.start + 1)
