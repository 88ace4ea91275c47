"""SkyRL's standalone vLLM server: `python -m skyrl.backends.skyrl_train.inference_servers.vllm_server_actor
--model M --port P ...` (PyPI `skyrl` 0.3.0 and 0.4.0, the same module in both), which SkyRL's
docstring gives for "external rollout-server deployments ... launched directly with `python -m`".

Source: `skyrl/backends/skyrl_train/inference_servers/vllm_server_actor.py`. `main` parses the
words with vLLM's own API-server parser (`_build_standalone_cli_args`: `FrontendArgs.add_cli_args`
and `AsyncEngineArgs.add_cli_args`, 0.3.0 `:519-542`, 0.4.0 `:745-768`), so it is read as
`python -m vllm.entrypoints.openai.api_server`, whose `--port` defaults to vLLM's 8000
(`port: int = 8000`: vLLM 0.28.0 `entrypoints/openai/cli_args.py:248`, 0.29.0-0.32.0
`entrypoints/launchers/cli_args.py`). A host
not given becomes a wildcard (0.3.0 `:563-564` "0.0.0.0"; 0.4.0 `:790-791` `default_bind_host`,
"0.0.0.0" or "::", `common.py:76-78`), so `localhost` reaches it. `_build_and_serve_vllm_server`
serves vLLM's app (`build_app(cli_args)`) with SkyRL's routes added (`_add_custom_endpoints`):
`/reset_prefix_cache`, `/skyrl/v1/load_lora_adapter` and `/skyrl/v1/generate` (0.4.0 adds
`/fetch_weights`), whose answers `vllm.unusable_masks.FRAMEWORK_ROUTES` describes.

Two editions, as `frameworks.skyrl` (`EDITIONS`, chosen by the project's pin of `skyrl`):

- **0.4.0**: `cli_args.enable_scale_out = True` before `build_app` (`:695-696`, "SkyRL uses the
  scale-out token-in/token-out endpoint for generation"): `/inference/v1/generate` is open
  whatever the words say. Its parser comes from `vllm.entrypoints.launchers.cli_args` (`:754`),
  which vLLM 0.29.0-0.32.0 have.
- **0.3.0**: the words alone decide, as for vLLM's own server; its parser comes from
  `vllm.entrypoints.openai.cli_args` (`:528`), which among the releases with replay only vLLM
  0.28.0 has, where every server opens `/inference/v1/generate`.

So RPL301's own finding on a server without `--enable-scale-out` is right for neither edition,
and the launch is a framework's (none is made); its clients are judged by their routes.

A fork: when the checked tree holds SkyRL's own `vllm_server_actor.py` (found from the launching
file's folder upward) and it names `sampling_mask`, its routes may answer the mask: the launch
then takes no client (`entrypoint` ""), and no route of it is judged.

The servers SkyRL's trainers start (`main_base`, `serve`) are Ray actors on ports found at run
time (`find_and_reserve_port(8000 + ...)`, the first free one, on the node Ray picks; the router
on `get_open_port()`): they are not this launch and no client is tied to them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..command import command_launch as vllm_command_launch
from ..launch_context import LaunchContext
from ..model import Launch, Setting, Span
from ..vllm.command_line import Token
from .editions import Edition, build
from .nearby import upward
from .skyrl import EDITIONS, SUPPORT_SET

MODULE = "skyrl.backends.skyrl_train.inference_servers.vllm_server_actor"
FORK_SERVER = MODULE.replace(".", "/") + ".py"
# SkyRL's editions, whose words vLLM's parser reads (an unknown one is refused, not ignored).
SERVER_EDITIONS = replace(EDITIONS, passes="words")
# 0.4.0 `vllm_server_actor.py:696`: set on the parsed namespace after the user's words.
_FORCED_SCALE_OUT = "(SkyRL 0.4.0 sets enable_scale_out=True, vllm_server_actor.py:696)"


def server_launch(context: LaunchContext, span: Span, tokens: list[Token], elements: Any, syntax: Any) -> Launch | None:
    """The launch of SkyRL's standalone server under each edition (`editions.build`)."""
    # The kind stays the command's (a compose service is reached by its name): `framework` marks it SkyRL's.
    serving = replace(context, label=context.label or "skyrl: vllm_server_actor")
    entrypoint = "" if _fork_may_answer_masks(span, context) else "api_server"
    return build(SERVER_EDITIONS, lambda edition: _launch(edition, serving, span, tokens, elements, syntax, entrypoint))


def _fork_may_answer_masks(span: Span, context: LaunchContext) -> bool:
    forked = upward(FORK_SERVER, span.path, context.read_text) if context.read_text is not None else None
    return forked is not None and "sampling_mask" in forked


def _launch(
    edition: Edition, context: LaunchContext, span: Span, tokens: list[Token], elements: Any, syntax: Any, entrypoint: str
) -> Launch | None:
    launch = vllm_command_launch(context, span, tokens, elements, syntax, entrypoint="api_server")
    if launch is None:
        return None
    launch = replace(launch, entrypoint=entrypoint)  # parsed as vLLM's API server's words either way
    if edition.name != SUPPORT_SET:
        return launch
    forced = Setting("enable_scale_out", True, span, _FORCED_SCALE_OUT, implied=True)
    return replace(launch, settings={**launch.settings, "enable_scale_out": forced})
