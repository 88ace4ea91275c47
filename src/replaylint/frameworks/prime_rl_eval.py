"""prime-rl's eval requests (main @ 559b447, `configs/orchestrator.py:74-116`, `:297-339`): with
`[orchestrator.eval]`, each `[[orchestrator.eval.source]]` is evaluated against the policy's
server (at the start and every `interval` steps) with its sampling: the group's
`[orchestrator.eval.sampling]` under the source's own key by key (`EvalConfig.resolve_env_defaults`;
a source's `extra_body` replaces the group's whole), sent as `EvalSamplingConfig.to_sampling_args`
builds it: `temperature` when set, `top_k` in `extra_body` (over `extra_body`'s own) when set. A
key set nowhere is not sent: the server's generation config decides, the request is open-ended.
`skip_first_step = true` may leave no eval inside the run: its requests are not judged."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..model import Request, Setting

if TYPE_CHECKING:
    from ..toml_document import TomlDocument

EVAL = ("orchestrator", "eval")
_SENT = {"temperature": (("temperature",),), "top_k": (("top_k",), ("extra_body", "top_k"))}  # the first written wins


def eval_requests(document: TomlDocument) -> tuple[Request, ...]:
    """One request per eval source of the file (none without `[orchestrator.eval]`)."""
    sources = document.value(*EVAL, "source")
    if not isinstance(sources, list) or document.value(*EVAL, "skip_first_step", default=False) is not False:
        return ()
    requests = []
    for index, source in enumerate(sources):
        if not isinstance(source, dict):
            continue
        path = (*EVAL, "source", index)
        found: dict[str, Setting] = {}
        for key, spellings in _SENT.items():
            written = next(filter(None, (sampling_key(document, EVAL, path, source, keys) for keys in spellings)), None)
            if written is not None:
                span = document.nearest(*written)
                found[key] = Setting(key, document.value(*written), span, document.text(span), document.value_span(*written))
        requests.append(Request("sampling", document.nearest(*path), found, open_ended=len(found) < len(_SENT)))
    return tuple(requests)


def sampling_key(
    document: TomlDocument, group: tuple[str, ...], path: tuple[Any, ...], source: dict, keys: tuple[str, ...]
) -> tuple[Any, ...] | None:
    """Where a source's sampling key is written: its own `sampling` (its `extra_body` taken
    whole), else the group's (`group`: `orchestrator.train`, `orchestrator.eval`)."""
    sampling = source.get("sampling") if isinstance(source.get("sampling"), dict) else {}
    if keys[0] in sampling:
        return (*path, "sampling", *keys) if document.value(*path, "sampling", *keys) is not None else None
    written = (*group, "sampling", *keys)
    return written if document.value(*written) is not None else None
