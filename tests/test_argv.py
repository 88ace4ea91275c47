"""`vllm.argv.parse`, word by word, against the parser rules of the spec (section 6): what vLLM's
FlexibleArgumentParser and argparse make of the words after `vllm serve`."""

from __future__ import annotations

import pytest

from replaylint.model import UNKNOWN, Span
from replaylint.vllm import command_line
from replaylint.vllm.releases import parse_release


def tokens(*words: str | None) -> list[command_line.Token]:
    found, offset = [], 0
    for word in words:
        text = word if word is not None else "$X"
        found.append(command_line.Token(word, Span("serve.sh", 1, offset + 1, 1, offset + len(text) + 1, offset, offset + len(text)), text))
        offset += len(text) + 1
    return found


def parse(*words: str | None, release: str = "0.33.0", load_config: command_line.ConfigLoader | None = None) -> command_line.ArgvResult:
    return command_line.parse(tokens(*words), parse_release(release), load_config)


def value(result: command_line.ArgvResult, name: str) -> object:
    return result.settings[name].value if name in result.settings else "absent"


def issue_kinds(result: command_line.ArgvResult) -> list[str]:
    return [issue.kind for issue in result.issues]


# -- spellings of one option ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["--logprobs-mode", "processed_logprobs"], "processed_logprobs"),
        (["--logprobs-mode=processed_logprobs"], "processed_logprobs"),
        (["--logprobs_mode", "processed_logprobs"], "processed_logprobs"),  # `_` to `-` in the name
        (["--logprobs_mode=processed_logprobs"], "processed_logprobs"),
        (["--logp", "processed_logprobs"], "processed_logprobs"),  # a unique prefix
        (["--logprobs-mode", "raw_logprobs", "--logprobs-mode", "processed_logprobs"], "processed_logprobs"),  # the last wins
        (["--logprobs-mode", "processed-logprobs"], "processed-logprobs"),  # values are never normalised
    ],
)
def test_logprobs_mode_spellings(words: list[str], expected: str) -> None:
    assert value(parse("m", *words), "logprobs_mode") == expected


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["--return-sampling-mask"], True),
        (["--return_sampling_mask"], True),
        (["--return-s"], True),
        (["--no-return-sampling-mask"], False),
        (["--no-return-s"], False),
        (["--no-return-sampling-mask", "--return-sampling-mask"], True),
        (["--return-sampling-mask", "--no-return-sampling-mask"], False),
        ([], "absent"),
    ],
)
def test_the_mask_switch(words: list[str], expected: object) -> None:
    assert value(parse("m", *words), "return_sampling_mask") == expected


def test_the_switch_takes_no_value() -> None:
    assert issue_kinds(parse("m", "--return-sampling-mask=true")) == ["switch-with-value"]  # "ignored explicit argument"
    stray = parse("m", "--return-sampling-mask", "true")
    assert value(stray, "return_sampling_mask") is True and issue_kinds(stray) == ["switch-followed-by-value"]


def test_an_ambiguous_prefix_matches_nothing() -> None:
    result = parse("m", "--return")  # also --return-tokens-as-token-ids
    assert value(result, "return_sampling_mask") == "absent" and issue_kinds(result) == ["ambiguous"]


def test_prefixes_come_from_the_release_judged() -> None:
    # --enable-batch-sharded-sampling exists from 0.29; --enable-b is unique only where no other
    # --enable-b... option exists (0.30+ per the spec)
    assert value(parse("m", "--enable-batch-sharded-sampling", release="0.29.0"), "enable_batch_sharded_sampling") is True
    assert value(parse("m", "--enable-b", release="0.30.0"), "enable_batch_sharded_sampling") is True


# -- lists, JSON, dotted keys --------------------------------------------------------------------


def test_logits_processors_take_several_words_without_comma_splitting() -> None:
    result = parse("m", "--logits-processors", "a:B", "c:D,e:F", "--return-sampling-mask")
    assert value(result, "logits_processors") == ["a:B", "c:D,e:F"]
    assert value(result, "return_sampling_mask") is True


@pytest.mark.parametrize("none", ["", "None", "null"])
def test_json_none_words_mean_no_speculative_config(none: str) -> None:
    assert value(parse("m", "--speculative-config", none), "speculative_config") is None


def test_speculative_config_json_and_short_spelling() -> None:
    spec = '{"method": "ngram", "num_speculative_tokens": 3}'
    assert value(parse("m", "--speculative-config", spec), "speculative_config") == {"method": "ngram", "num_speculative_tokens": 3}
    assert value(parse("m", "-sc", spec), "speculative_config") == {"method": "ngram", "num_speculative_tokens": 3}


def test_dotted_keys_are_merged_and_replace_a_whole_json_value() -> None:
    spec = '{"method": "ngram", "num_speculative_tokens": 3}'
    result = parse("m", "-sc.enable_adaptive_verification", "true", "-sc", spec)
    assert value(result, "speculative_config") == {"enable_adaptive_verification": True}  # appended last, whatever the order
    assert issue_kinds(result) == ["dotted-replaces-value"] and result.issues[0].spelling == f"-sc {spec}"
    merged = parse("m", "-sc.method", "ngram", "-sc.num_speculative_tokens", "3")
    assert value(merged, "speculative_config") == {"method": "ngram", "num_speculative_tokens": 3}
    assert value(parse("m", "--speculative-config.method", "ngram"), "speculative_config") == {"method": "ngram"}


def test_dotted_values_are_json() -> None:
    result = parse("m", "-sc.enable_adaptive_verification", "True")  # `True` is not JSON: a string
    assert value(result, "speculative_config") == {"enable_adaptive_verification": "True"}


def test_spec_aliases() -> None:
    result = parse("m", "--spec-method", "ngram", "--spec-tokens", "3")
    assert value(result, "spec_method") == "ngram"


# -- the model, --config, unknown words ----------------------------------------------------------


def test_model_positional_or_option() -> None:
    assert value(parse("Qwen/Qwen3-8B"), "model") == "Qwen/Qwen3-8B"
    assert value(parse("--model", "Qwen/Qwen3-8B"), "model") == "Qwen/Qwen3-8B"


def test_config_file_is_read_in_the_two_word_form_only() -> None:
    loaded: list[str] = []

    def load(path: str, token: command_line.Token) -> list[command_line.Token]:
        loaded.append(path)
        return tokens("--logprobs-mode", "raw_logprobs", "--max-model-len", "8192")

    result = parse("m", "--config", "serve.yaml", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", load_config=load)
    assert loaded == ["serve.yaml"] and value(result, "logprobs_mode") == "processed_logprobs"  # the command line wins
    under = parse("m", "--config", "serve.yaml", "--return-sampling-mask", load_config=load)
    assert value(under, "logprobs_mode") == "raw_logprobs"
    loaded.clear()
    ignored = parse("m", "--config=serve.yaml", "--return-sampling-mask", load_config=load)
    assert loaded == [] and value(ignored, "logprobs_mode") == "absent"
    assert issue_kinds(ignored) == ["config-equals-ignored"]


def test_unknown_and_spread_words() -> None:
    unknown = parse("m", "--logprobs-mode", None)
    assert value(unknown, "logprobs_mode") is UNKNOWN and not unknown.open_ended
    spread = command_line.parse(
        [*tokens("m", "--return-sampling-mask"), command_line.Token(None, tokens("x")[0].span, '"$@"', spread=True)]
    )
    assert spread.open_ended


def test_every_setting_keeps_the_span_of_its_words() -> None:
    result = parse("m", "--logprobs-mode", "processed_logprobs")
    span = result.settings["logprobs_mode"].span
    assert (span.start, span.end) == (2, len("m --logprobs-mode processed_logprobs"))
