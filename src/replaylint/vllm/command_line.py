"""Command-line semantics: the words after `vllm serve` become settings, as vLLM parses them.

This mirrors `FlexibleArgumentParser.parse_args` (vllm/utils/argparse_utils.py) and the
argparse it feeds: `--model X` moved to the positional slot; `--config FILE` (two words only)
spliced in after the model, `--config=FILE` silently ignored; `_` to `-` in `--` option names
(up to the first `.` or `=`), never in values; `-O3` / `-O 3` to `--optimization-level 3`; dotted keys (`-sc.method ngram`) merged per
spelling and appended at the end, so they replace a whole-JSON value; then argparse: exact
option strings, else a unique prefix of a long option; switches take no value; `nargs="+"`
lists; last occurrence wins. Every setting keeps the span of the words that produced it.

Frontends hand in `Token`s (the word after quote removal, its span, its raw text). A word we
cannot know (`$X`) has `text=None`; a spread of any number of words (`"$@"`,
`"${ARGS[@]}"`) has `spread=True` and makes the launch open-ended, unless it is the script's
own arguments (`forwarded`): those are listed apart, for the launch to be judged without them.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from ..model import UNKNOWN, ArgIssue, Setting, Span
from .argv_words import (
    BOOL_WORDS,
    MODEL_OPTION,
    NEGATIVE_NUMBER,
    ArgvResult,
    ConfigLoader,
    Item,
    Token,
    convert,
    cover_of,
    dotted_value,
    looks_like_option,
    merge,
    normalise,
    optimization_level,
    spelling_of,
)
from .options import Option, table_for
from .releases import NEWEST, Release


class _Parser:
    def __init__(self, tokens: Sequence[Token], release: Release, load_config: ConfigLoader | None, entrypoint: str):
        self.tokens = list(tokens)
        self.table = table_for(release)
        self.load_config = load_config
        self.entrypoint = entrypoint
        self.result = ArgvResult()
        self.indices: dict[str, list[int]] = {}  # token_indices as they grow (a tuple each would copy: quadratic)

    # -- the steps of FlexibleArgumentParser.parse_args -------------------------------------

    def run(self) -> ArgvResult:
        items = [Item(token, index, token.text) for index, token in enumerate(self.tokens)]
        items = self._drop_spreads(items)
        model, items = self._model(items)
        items = self._config(items, model is not None)
        items = [Item(i.token, i.index, None if i.text is None else normalise(i.text)) for i in items]
        items = optimization_level(items)
        items, dotted = self._collect_dotted(items)
        self._argparse(items)
        for spelling, (value, tokens, keys) in dotted.items():
            self._apply_dotted(spelling, value, tokens, keys)
        if model is not None:
            self._set("model", *model)
        self.result.token_indices = {dest: tuple(indices) for dest, indices in self.indices.items()}
        return self.result

    def _drop_spreads(self, items: list[Item]) -> list[Item]:
        kept = []
        for item in items:
            if item.token.spread:
                self._unseen(item.token)
            else:
                kept.append(item)
        return kept

    def _unseen(self, token: Token) -> None:
        """Words we cannot read: the script's own arguments, or anything else (open-ended)."""
        (self.result.forwarded if token.forwarded else self.result.open_reasons).append(token.raw)

    def _model(self, items: list[Item]) -> tuple[tuple[Any, list[Item]] | None, list[Item]]:
        """`vllm serve --model X` is rewritten to the positional form; else the first word."""
        if self.entrypoint == "serve":
            for position, item in enumerate(items):
                if item.text is not None and MODEL_OPTION.match(item.text):
                    if item.text == "--model":
                        taken = items[position : position + 2]
                        value = taken[1].token.text if len(taken) == 2 else None
                    else:
                        taken = [item]
                        value = item.text[len("--model=") :]
                    rest = items[:position] + items[position + len(taken) :]
                    return (UNKNOWN if value is None else value, taken), rest
        if self.entrypoint in ("serve", "dynamo") and items and (items[0].text is None or not items[0].text.startswith("-")):
            first = items[0]
            return (UNKNOWN if first.text is None else first.text, [first]), items[1:]
        return None, items

    def _config(self, items: list[Item], has_model: bool) -> list[Item]:
        """`--config FILE` splices the file's options in first (so the command line wins)."""
        for position, item in enumerate(items):
            if item.text is not None and item.text.startswith("--config="):
                self.result.issues.append(
                    ArgIssue("config-equals-ignored", item.token.span, item.token.raw, "config", item.text[len("--config=") :])
                )
                return items[:position] + items[position + 1 :]
        positions = [p for p, item in enumerate(items) if item.text == "--config"]
        if not positions:
            return items
        position = positions[0]
        if position + 1 >= len(items) or items[position + 1].text is None:
            self.result.open_reasons.append("--config with a file we cannot name")
            return items[:position] + items[position + 2 :]
        path_token = items[position + 1].token
        assert path_token.text is not None
        loaded = self.load_config(path_token.text, path_token) if self.load_config else None
        if loaded is None:
            self.result.open_reasons.append(f"--config {path_token.text} (not readable here)")
            loaded = []
        else:
            self.result.config_file = path_token.text
        config_items = [Item(token, None, token.text) for token in loaded]
        rest = items[:position] + items[position + 2 :]
        return config_items + rest

    def _collect_dotted(self, items: list[Item]) -> tuple[list[Item], dict[str, tuple[dict, list[Token], dict[str, Setting]]]]:
        """Pull out `-X.a.b V` / `-X.a.b=V` words: one merged dict per spelling of X."""
        kept: list[Item] = []
        dotted: dict[str, tuple[dict, list[Token], dict[str, Setting]]] = {}
        skip_next = False
        for position, item in enumerate(items):
            if skip_next:
                skip_next = False
                continue
            text = item.text
            if text is None or not text.startswith("-") or "." not in text.split("=", 1)[0] or NEGATIVE_NUMBER.match(text):
                kept.append(item)
                continue
            name, eq, value_text = text.partition("=")
            words = [item.token]
            if not eq:
                if position + 1 >= len(items):
                    kept.append(item)
                    continue
                value_item = items[position + 1]
                words.append(value_item.token)
                skip_next = True
                value: Any = UNKNOWN if value_item.text is None else None
                value_text = value_item.text or ""
            else:
                value = None
            append = name.endswith("+")
            if append:
                name = name[:-1]
            if value is None:
                value = json.loads(json.dumps(value_text.split(","))) if append else dotted_value(value_text)
            spelling, *path = name.split(".")
            merged, tokens, keys = dotted.setdefault(spelling, ({}, [], {}))
            tokens.extend(words)
            merge(merged, path, value, append)
            key = path[0].replace("-", "_")
            written = item.token.inline_written if eq else words[-1].written  # `-sc.method=$(METHOD)`: the value is written there
            span = written or cover_of(words)
            via = (cover_of(words),) if written is not None else ()
            sub = Setting(key, merged.get(path[0]), span, spelling_of(words), words[-1].span, via=via)
            if len(path) > 1:
                previous = keys.get(key)
                nested = dict(previous.keys) if previous else {}
                nested[path[1].replace("-", "_")] = Setting(path[1], value, span, spelling_of(words), words[-1].span, via=via)
                sub = Setting(key, merged.get(path[0]), span, spelling_of(words), words[-1].span, nested, via=via)
            keys[key] = sub
            for word_item in [item, items[position + 1]] if not eq else [item]:
                if word_item.index is not None:
                    self._remember_tokens(spelling, word_item.index)
        return kept, dotted

    def _remember_tokens(self, key: str, index: int) -> None:
        self.indices.setdefault("." + key, []).append(index)

    def _apply_dotted(self, spelling: str, value: dict, tokens: list[Token], keys: dict[str, Setting]) -> None:
        option, candidates = self.table.lookup(spelling)
        if option is None:
            self._unresolved(spelling, tokens[0], candidates)
            return
        if any(token.text is None for token in tokens):
            value = UNKNOWN
        setting = Setting(option.dest, value, cover_of(tokens), spelling_of(tokens), tokens[-1].span, keys)
        replaced = self.result.settings.get(option.dest)
        if replaced is not None and isinstance(replaced.value, dict) and replaced.value:  # a whole value is lost
            detail = f"{setting.spelling}|{json.dumps(value) if value is not UNKNOWN else '...'}"
            self.result.issues.append(ArgIssue("dotted-replaces-value", replaced.span, replaced.spelling, option.dest, detail))
        self.result.settings[option.dest] = setting
        self.indices.setdefault(option.dest, []).extend(self.indices.pop("." + spelling, []))

    # -- argparse --------------------------------------------------------------------------

    def _argparse(self, items: list[Item]) -> None:
        position = 0
        last_switch: Option | None = None
        while position < len(items):
            item = items[position]
            text = item.text
            if text is None:
                self._unseen(item.token)
                position += 1
                continue
            if not looks_like_option(text, self.table):
                if last_switch is not None and last_switch.dest == "return_sampling_mask" and text.lower() in BOOL_WORDS:
                    detail = f"unrecognized arguments: {text}"
                    self.result.issues.append(
                        ArgIssue("switch-followed-by-value", item.token.span, item.token.raw, last_switch.dest, detail)
                    )
                last_switch = None
                position += 1
                continue
            name, eq, inline = text.partition("=")
            option, candidates = self.table.lookup(name if eq else text)
            if option is None and eq:
                option, candidates = self.table.lookup(text)
                if option is not None:
                    eq, inline = "", ""
            if option is None:
                position = self._unknown_option(items, position, name, candidates)
                last_switch = None
                continue
            words = [item]
            values: list[Token] = []
            if option.nargs == 0:
                if eq:
                    flags = "/".join(self._strings_of(option.dest))
                    detail = f"argument {flags}: ignored explicit argument '{inline}'"
                    self.result.issues.append(ArgIssue("switch-with-value", item.token.span, item.token.raw, option.dest, detail))
                value: Any = not option.negative
                last_switch = option
            else:
                last_switch = None
                if eq:
                    values = [Token(inline, item.token.span, item.token.raw)]
                else:
                    values, consumed = self._values(items, position + 1, option.nargs)
                    words.extend(consumed)
                    if not values and option.nargs in (1, "+"):
                        self.result.issues.append(
                            ArgIssue("missing-value", item.token.span, item.token.raw, option.dest, "expected one argument")
                        )
                        values = []
                value = convert(option.dest, values, option.nargs) if (values or option.nargs != 1) else UNKNOWN
            position += len(words)
            tokens = [w.token for w in words]
            value_span, via = _value_place(values)
            keys = dict(values[0].keys) if len(values) == 1 else {}
            written = item.token.written if option.nargs == 0 else None  # `$TRACE_ARGS`: the switch is written there
            via = (item.token.span,) if written is not None else via
            self._set(option.dest, value, words, value_span=value_span, keys=keys, tokens=tokens, via=via, span=written)

    def _values(self, items: list[Item], start: int, nargs: int | str) -> tuple[list[Token], list[Item]]:
        taken: list[Item] = []
        position = start
        limit = 1 if nargs in (1, "?") else (nargs if isinstance(nargs, int) else len(items))
        while position < len(items) and len(taken) < limit:
            candidate = items[position]
            if candidate.text is not None and looks_like_option(candidate.text, self.table):
                break
            taken.append(candidate)
            position += 1
        return [
            item.token
            if item.text is None
            else Token(item.text, item.token.span, item.token.raw, value=item.token.value, keys=item.token.keys, written=item.token.written)
            for item in taken
        ], taken

    def _unknown_option(self, items: list[Item], position: int, name: str, candidates: tuple[str, ...]) -> int:
        item = items[position]
        self._unresolved(name, item.token, candidates)
        dest = name.lstrip("-").replace("-", "_")
        words = [item]
        if "=" not in (item.text or "") and position + 1 < len(items):
            following = items[position + 1]
            if following.text is None or not looks_like_option(following.text, self.table):
                words.append(following)
        if not candidates and dest:
            value: Any = True if len(words) == 1 and "=" not in (item.text or "") else UNKNOWN
            if len(words) == 2 and words[1].text is not None:
                value = words[1].text
            self._set(dest, value, words, value_span=words[-1].token.span if len(words) == 2 else None)
        return position + len(words)

    def _unresolved(self, name: str, token: Token, candidates: tuple[str, ...]) -> None:
        if candidates:
            detail = f"ambiguous option: {name} could match {', '.join(candidates)}"
            dests = ",".join(sorted({self.table.options[c].dest for c in candidates}))
            self.result.issues.append(ArgIssue("ambiguous", token.span, token.raw, dests, detail))
        else:
            self.result.issues.append(
                ArgIssue("unrecognized", token.span, token.raw, name.lstrip("-").replace("-", "_"), f"unrecognized arguments: {name}")
            )

    def _strings_of(self, dest: str) -> list[str]:
        options = [option for option in self.table.options.values() if option.dest == dest]
        options.sort(key=lambda option: (option.negative, not option.string.startswith("--"), option.string))
        return [option.string for option in options]

    def _set(
        self,
        dest: str,
        value: Any,
        words: list[Item],
        value_span: Span | None = None,
        keys: dict[str, Setting] | None = None,
        tokens: list[Token] | None = None,
        via: tuple[Span, ...] = (),
        span: Span | None = None,
    ) -> None:
        """`span`: where the setting is decided, when not at its words (they are then in `via`)."""
        tokens = tokens or [w.token for w in words]
        if value_span is None and dest == "model" and tokens:
            value_span = tokens[-1].span
        self.result.settings[dest] = Setting(dest, value, span or cover_of(tokens), spelling_of(tokens), value_span, keys or {}, via=via)
        # Every occurrence is kept: removing a setting must remove the ones it shadows too.
        self.indices.setdefault(dest, []).extend(w.index for w in words if w.index is not None)


def _value_place(values: list[Token]) -> tuple[Span | None, tuple[Span, ...]]:
    """Where an option's value is decided: its last word, or, for a word that is one variable's
    whole value, where that value is written (the word is then the hop it passes through)."""
    if not values:
        return None, ()
    last = values[-1]
    return (last.span, ()) if last.written is None else (last.written, (last.span,))


def parse(
    tokens: Sequence[Token],
    release: Release = NEWEST,
    load_config: ConfigLoader | None = None,
    entrypoint: str = "serve",
) -> ArgvResult:
    """Settings from the words after `vllm serve` (entrypoint "serve"), after
    `python -m vllm.entrypoints.openai.api_server` ("api_server": the model needs `--model`),
    or after `python -m dynamo.vllm` ("dynamo")."""
    return _Parser(tokens, release, load_config, entrypoint).run()
