"""Dockerfile frontend: Docker's line reading, stages, ENV/ARG, exec and shell forms, fixes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from replaylint.edits import apply_edits
from replaylint.frontends import ExtractContext, ParseError, SourceFile, dockerfile
from replaylint.frontends.dockerfile import stage_launches as dockerfile_launches
from replaylint.frontends.dockerfile.variables import VALUE_LIMIT
from replaylint.model import UNKNOWN, Applicability, Fix, Launch, RemoveEnv, RemoveSetting, SetSetting, Span

needs_shell = pytest.mark.skipif(dockerfile_launches.extract_script is None, reason="the shell frontend (extract_script) is not there yet")


def launches(text: str) -> list[Launch]:
    return dockerfile.extract(SourceFile("Dockerfile", text), ExtractContext())


def only(text: str) -> Launch:
    found = launches(text)
    assert len(found) == 1, found
    return found[0]


def at(text: str, span: Span) -> str:
    return text[span.start : span.end]


def fixed(text: str, launch: Launch, *intents) -> str | None:
    source = SourceFile("Dockerfile", text)
    edits = dockerfile.render(launch, Fix(Applicability.SAFE, "fix", tuple(intents)), source)
    if edits is None:
        return None
    result, left = apply_edits(text, edits)
    assert left == []
    assert dockerfile.parses(result)
    return result


def keywords(text: str) -> list[str]:
    return [instruction.keyword for instruction in dockerfile.read_dockerfile(text).instructions]


# -- reading ----------------------------------------------------------------------------------------


def test_continuations_join_lines_and_drop_comment_and_blank_lines() -> None:
    text = 'FROM x\nRUN a \\\n# not a comment of RUN, dropped\n\n    b\nCMD ["c"]\n'
    read = dockerfile.read_dockerfile(text).instructions
    assert [i.keyword for i in read] == ["FROM", "RUN", "CMD"]
    assert read[1].args.text == "a     b"


def test_a_comment_line_after_a_continuation_does_not_end_the_instruction() -> None:
    # Docker keeps reading after the comment: the CMD line belongs to the RUN.
    assert keywords('FROM x\nRUN ls \\\n# c\nCMD ["m"]\n') == ["FROM", "RUN"]


def test_an_escaped_escape_character_is_no_continuation() -> None:
    assert keywords('FROM x\nRUN echo a\\\\\nCMD ["m"]\n') == ["FROM", "RUN", "CMD"]


def test_hash_inside_a_line_is_not_a_comment() -> None:
    read = dockerfile.read_dockerfile("FROM x\nRUN echo a # b\n").instructions
    assert read[1].args.text == "echo a # b"


def test_directives_only_count_at_the_top() -> None:
    assert dockerfile.read_dockerfile("# syntax=docker/dockerfile:1\n# escape=`\nFROM x\n").escape == "`"
    assert dockerfile.read_dockerfile("# hello\n# escape=`\nFROM x\n").escape == "\\"
    assert dockerfile.read_dockerfile("\n# escape=`\nFROM x\n").escape == "\\"


def test_bad_directives_are_parse_errors() -> None:
    with pytest.raises(ParseError, match="invalid escape token"):
        dockerfile.read_dockerfile("# escape=x\nFROM x\n")
    with pytest.raises(ParseError, match="only one escape"):
        dockerfile.read_dockerfile("# escape=`\n# escape=`\nFROM x\n")


def test_backtick_escape_directive_continues_lines() -> None:
    text = '# escape=`\nFROM vllm/vllm-openai\nCMD ["m", `\n     "--return-sampling-mask"]\nRUN dir C:\\ \n'
    assert keywords(text) == ["FROM", "CMD", "RUN"]
    launch = only(text)
    assert at(text, launch.settings["return_sampling_mask"].span) == '"--return-sampling-mask"'


def test_heredoc_bodies_are_not_instructions() -> None:
    text = (
        "FROM vllm/vllm-openai\n"
        "COPY <<EOF /etc/notes\n"
        'CMD ["m", "--return-sampling-mask"]\n'
        "EOF\n"
        "RUN <<-'SCRIPT' bash\n"
        "\techo hi\n"
        "\tSCRIPT\n"
        'CMD ["m"]\n'
    )
    assert keywords(text) == ["FROM", "COPY", "RUN", "CMD"]
    assert "return_sampling_mask" not in only(text).settings


def test_several_heredocs_on_one_line() -> None:
    text = 'FROM x\nRUN cat <<A <<"B"\na\nA\nb\nB\nCMD ["m"]\n'
    read = dockerfile.read_dockerfile(text).instructions
    assert [h.name for h in read[1].heredocs] == ["A", "B"]
    assert read[2].keyword == "CMD"


def test_an_unterminated_heredoc_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="unterminated heredoc"):
        dockerfile.read_dockerfile("FROM x\nRUN <<EOF\necho\n")
    assert not dockerfile.parses("FROM x\nRUN <<EOF\necho\n")


def test_the_legacy_env_form_with_spaces_does_not_hide_what_follows() -> None:
    text = 'FROM vllm/vllm-openai\nENV TORCH_CUDA_ARCH_LIST 8.0 9.0\nARG A=1 B\nCMD ["m", "--return-sampling-mask"]\n'
    launch = only(text)
    assert launch.env["TORCH_CUDA_ARCH_LIST"].value == "8.0 9.0"
    assert launch.settings["return_sampling_mask"].value is True


def test_no_final_newline_and_crlf_lines() -> None:
    text = 'FROM vllm/vllm-openai\r\nCMD ["m", \\\r\n  "--return-sampling-mask"]'
    launch = only(text)
    assert at(text, launch.settings["return_sampling_mask"].span) == '"--return-sampling-mask"'


def test_lowercase_instructions() -> None:
    assert only('from vllm/vllm-openai as s\ncmd ["m", "--return-sampling-mask"]\n').settings["return_sampling_mask"].value is True


# -- exec form --------------------------------------------------------------------------------------


def test_exec_form_over_continued_lines_points_at_each_json_string() -> None:
    text = 'FROM vllm/vllm-openai:v0.31.0\nCMD ["Qwen/Qwen3-8B", \\\n     "--return-sampling-mask", \\\n     "--logprobs-mode", "raw_logprobs"]\n'
    launch = only(text)
    mask, mode = launch.settings["return_sampling_mask"], launch.settings["logprobs_mode"]
    assert (mask.span.start_line, mask.span.start_col) == (3, 6)
    assert at(text, mask.span) == '"--return-sampling-mask"'
    assert at(text, mode.value_span) == '"raw_logprobs"'
    assert mode.value == "raw_logprobs"
    assert launch.settings["model"].value == "Qwen/Qwen3-8B"


def test_json_escapes_are_decoded() -> None:
    launch = only('FROM vllm/vllm-openai\nCMD ["m", "--\\u0072eturn-sampling-mask", "--logits-processors", "a\\"b"]\n')
    assert launch.settings["return_sampling_mask"].value is True
    assert launch.settings["logits_processors"].value == ['a"b']


def test_exec_form_words_are_not_substituted() -> None:
    launch = only('FROM vllm/vllm-openai\nENV M=x\nCMD ["$M", "--logprobs-mode", "${MODE}"]\n')
    assert launch.settings["model"].value == "$M"
    assert launch.settings["logprobs_mode"].value == "${MODE}"


def test_a_bracket_that_is_not_json_is_shell_form() -> None:
    # Docker runs `['m', '--return-sampling-mask']` with /bin/sh -c; behind `vllm serve` that is no launch.
    assert launches("FROM vllm/vllm-openai\nCMD ['m', '--return-sampling-mask']\n") == []


def test_a_json_array_of_non_strings_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="strings only"):
        launches('FROM vllm/vllm-openai\nCMD ["m", 1]\n')


def test_shell_form_cmd_of_flags_is_docker_flag_error() -> None:
    with pytest.raises(ParseError, match="unknown flag: model") as error:
        launches("FROM vllm/vllm-openai\n\nCMD --model m --return-sampling-mask\n")
    assert error.value.line == 3


def test_shell_form_cmd_behind_the_vllm_entrypoint_is_no_launch() -> None:
    assert launches("FROM vllm/vllm-openai\nCMD m --return-sampling-mask\n") == []


def test_entrypoint_module_with_cmd_words_appended() -> None:
    text = (
        "FROM python:3.12\n"
        'ENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "m"]\n'
        'CMD ["--return-sampling-mask"]\n'
    )
    launch = only(text)
    assert launch.settings["model"].value == "m"
    assert launch.settings["return_sampling_mask"].span.start_line == 3
    assert launch.label == "CMD"


def test_dynamo_entrypoint_and_init_wrappers() -> None:
    launch = only('FROM x\nENTRYPOINT ["tini", "--", "python", "-m", "dynamo.vllm"]\nCMD ["--model", "m", "--return-sampling-mask"]\n')
    assert launch.settings["return_sampling_mask"].value is True


def test_empty_entrypoint_clears_the_image_entrypoint() -> None:
    launch = only('FROM vllm/vllm-openai\nENTRYPOINT []\nCMD ["vllm", "serve", "m", "--return-sampling-mask"]\n')
    assert launch.settings["model"].value == "m"


# -- stages -----------------------------------------------------------------------------------------


def test_vllm_image_cmd_holds_arguments_only() -> None:
    launch = only('FROM docker.io/vllm/vllm-openai:v0.31.0\nCMD ["m", "--return-sampling-mask"]\n')
    assert launch.settings["model"].value == "m"
    assert launch.version_hint is not None and launch.version_hint.releases == ("0.31.0",)
    assert not launch.env_open


@pytest.mark.parametrize(
    "image", ["vllm/vllm-openai-rocm:v0.31.0", "vllm/vllm-openai-cpu:latest", "vllm/vllm-openai-xpu", "vllm/vllm-openai-nonroot:nightly"]
)
def test_serving_variant_images_run_vllm_serve(image: str) -> None:
    launch = only(f'FROM {image}\nCMD ["m", "--return-sampling-mask"]\n')
    assert launch.settings["model"].value == "m" and launch.settings["return_sampling_mask"].value is True


def test_other_images_have_an_unknown_entrypoint() -> None:
    assert launches('FROM vllm/vllm-openai-rocm:base-nightly-rocm72\nCMD ["m", "--return-sampling-mask"]\n') == []
    assert launches('FROM vllm/vllm-openai-zen:v0.31.0\nCMD ["m", "--return-sampling-mask"]\n') == []
    assert launches('FROM mycorp/vllm:1\nCMD ["--model", "m", "--return-sampling-mask"]\n') == []


def test_unknown_image_with_a_command_that_names_the_launcher() -> None:
    launch = only('FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nCMD ["vllm", "serve", "m", "--return-sampling-mask"]\n')
    assert launch.settings["return_sampling_mask"].value is True
    assert launch.env_open  # the base image may set VLLM_USE_V2_MODEL_RUNNER


def test_a_later_cmd_replaces_an_earlier_one() -> None:
    launch = only('FROM vllm/vllm-openai\nCMD ["m", "--return-sampling-mask"]\nCMD ["m", "--enable-dbo"]\n')
    assert "return_sampling_mask" not in launch.settings


def test_stage_reuse_inherits_env_entrypoint_cmd_and_release() -> None:
    text = (
        "FROM vllm/vllm-openai:v0.30.0 AS Base\n"
        "ENV VLLM_USE_V2_MODEL_RUNNER=0\n"
        'CMD ["m", "--return-sampling-mask"]\n'
        "FROM base\n"
        "RUN echo layer\n"
    )
    launch = only(text)
    assert launch.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"
    assert launch.settings["return_sampling_mask"].span.start_line == 3
    assert launch.version_hint.releases == ("0.30.0",)


def test_entrypoint_drops_the_inherited_cmd_but_not_its_own() -> None:
    inherited = 'FROM vllm/vllm-openai AS a\nCMD ["m", "--return-sampling-mask"]\nFROM a\nENTRYPOINT ["vllm", "serve", "n"]\n'
    assert "return_sampling_mask" not in only(inherited).settings
    own = 'FROM vllm/vllm-openai AS a\nFROM a\nCMD ["--return-sampling-mask"]\nENTRYPOINT ["vllm", "serve", "n"]\n'
    assert only(own).settings["return_sampling_mask"].value is True


def test_every_stage_no_later_stage_builds_on_is_an_image() -> None:
    text = (
        "FROM vllm/vllm-openai AS base\n"
        'CMD ["m"]\n'
        "FROM base AS dev\n"
        'CMD ["m", "--return-sampling-mask"]\n'
        "FROM base AS prod\n"
        'CMD ["m", "--enable-dbo"]\n'
    )
    assert [launch.span.start_line for launch in launches(text)] == [4, 6]


def test_env_of_an_unrelated_stage_is_not_inherited() -> None:
    text = (
        "FROM vllm/vllm-openai AS tools\n"
        "ENV VLLM_USE_V2_MODEL_RUNNER=0\n"
        "FROM vllm/vllm-openai\n"
        "COPY --from=tools /x /x\n"
        'CMD ["m", "--return-sampling-mask"]\n'
    )
    assert "VLLM_USE_V2_MODEL_RUNNER" not in only(text).env


# -- ENV and ARG ------------------------------------------------------------------------------------


def env_of(lines: str) -> dict:
    launch = only(f'FROM vllm/vllm-openai\n{lines}CMD ["m", "--return-sampling-mask"]\n')
    return {name: setting.value for name, setting in launch.env.items()}


def test_env_forms() -> None:
    assert env_of('ENV A=1 B="two words" C=a\\ b\n') == {"A": "1", "B": "two words", "C": "a b"}
    assert env_of("ENV LEGACY some value\n") == {"LEGACY": "some value"}
    assert env_of("ENV A=1 \\\n    B=2\n") == {"A": "1", "B": "2"}
    assert env_of("ENV S='$literal' D=\"x\\$y\"\n") == {"S": "$literal", "D": "x$y"}


def test_env_substitution() -> None:
    assert env_of("ENV A=1\nENV B=$A C=${A}x D=${NOPE:-d} E=${A:+set}\n") == {"A": "1", "B": "1", "C": "1x", "D": UNKNOWN, "E": "set"}
    # Every pair of one ENV sees the values from before that ENV.
    assert env_of("ENV abc=hello\nENV abc=bye def=$abc\nENV ghi=$abc\n") == {"abc": "bye", "def": "hello", "ghi": "bye"}


def test_arg_values() -> None:
    env = env_of("ARG A=0\nARG B\nENV X=$A Y=$B Z=${B:-1}\n")
    assert env == {"X": "0", "Y": UNKNOWN, "Z": UNKNOWN}


def test_global_args_reach_from_and_redeclarations_only() -> None:
    text = (
        "ARG TAG=v0.29.0\n"
        "ARG RUNNER=0\n"
        "FROM vllm/vllm-openai:${TAG}\n"
        "ARG RUNNER\n"
        "ENV VLLM_USE_V2_MODEL_RUNNER=$RUNNER OTHER=$TAG\n"
        'CMD ["m", "--return-sampling-mask"]\n'
    )
    launch = only(text)
    assert launch.version_hint.releases == ("0.29.0",)
    assert launch.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"
    assert launch.env["OTHER"].value is UNKNOWN


def test_an_unknown_tag_keeps_the_entrypoint() -> None:
    launch = only('ARG V\nFROM vllm/vllm-openai:v${V}\nCMD ["m", "--return-sampling-mask"]\n')
    assert launch.version_hint is None


def test_args_do_not_reach_the_image_command() -> None:
    assert "VLLM_USE_V2_MODEL_RUNNER" not in env_of("ARG VLLM_USE_V2_MODEL_RUNNER=0\n")


def test_env_setting_spans_and_spelling() -> None:
    text = 'FROM vllm/vllm-openai\nENV A=1 VLLM_USE_V2_MODEL_RUNNER="0"\nCMD ["m"]\n'
    setting = only(text).env["VLLM_USE_V2_MODEL_RUNNER"]
    assert at(text, setting.span) == 'VLLM_USE_V2_MODEL_RUNNER="0"'
    assert at(text, setting.value_span) == '"0"'
    assert setting.value == "0"


# -- version hints ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("run", "release", "evidence"),
    [
        ("RUN pip install vllm==0.31.0", "0.31.0", "vllm==0.31.0"),
        ("RUN uv pip install --system 'vllm==0.29.1' flash-attn", "0.29.1", "vllm==0.29.1"),
        ("RUN python3 -m pip install -U \\\n    vllm[audio]==0.30.0 && echo ok", "0.30.0", "vllm[audio]==0.30.0"),
        ("ARG VLLM_VERSION=0.32.0\nRUN pip3 install vllm==${VLLM_VERSION}", "0.32.0", "vllm==${VLLM_VERSION}"),
    ],
)
def test_pip_pins_give_the_release(run: str, release: str, evidence: str) -> None:
    text = f'FROM vllm/vllm-openai:v0.28.0\n{run}\nCMD ["m", "--return-sampling-mask"]\n'
    hint = only(text).version_hint
    assert hint.releases == (release,)
    assert at(text, hint.span) == evidence


def test_no_pin_from_other_commands_or_ranges() -> None:
    text = 'FROM vllm/vllm-openai\nRUN echo vllm==0.31.0 && pip install "vllm>=0.30"\nCMD ["m", "--return-sampling-mask"]\n'
    assert only(text).version_hint is None


# -- fixes ------------------------------------------------------------------------------------------

CMD_OK = 'CMD ["m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]\n'


@pytest.mark.parametrize(
    ("env", "after"),
    [
        ("ENV VLLM_USE_V2_MODEL_RUNNER=0\n", ""),
        ("ENV VLLM_USE_V2_MODEL_RUNNER 0\n", ""),
        ("ENV A=1 VLLM_USE_V2_MODEL_RUNNER=0 B=2\n", "ENV A=1 B=2\n"),
        ("ENV A=1 VLLM_USE_V2_MODEL_RUNNER=0\n", "ENV A=1\n"),
        ("ENV VLLM_USE_V2_MODEL_RUNNER=0 A=1\n", "ENV A=1\n"),
        ("ENV A=1 \\\n    VLLM_USE_V2_MODEL_RUNNER=0 \\\n    B=2\n", "ENV A=1 \\\n    B=2\n"),
        ("ENV A=1 \\\n    VLLM_USE_V2_MODEL_RUNNER=0\n", "ENV A=1\n"),
        ("ENV VLLM_USE_V2_MODEL_RUNNER=0 \\\n    A=1\n", "ENV A=1\n"),
        ("ENV \\\n    VLLM_USE_V2_MODEL_RUNNER=0\n", ""),
    ],
)
def test_removing_the_runner_variable(env: str, after: str) -> None:
    text = f"FROM vllm/vllm-openai\n{env}{CMD_OK}"
    result = fixed(text, only(text), RemoveEnv("VLLM_USE_V2_MODEL_RUNNER"))
    assert result == f"FROM vllm/vllm-openai\n{after}{CMD_OK}"


def test_removing_a_runner_variable_set_from_an_arg_removes_the_env() -> None:
    text = f"FROM vllm/vllm-openai\nARG RUNNER=0\nENV VLLM_USE_V2_MODEL_RUNNER=${{RUNNER}}\n{CMD_OK}"
    assert fixed(text, only(text), RemoveEnv("VLLM_USE_V2_MODEL_RUNNER")) == f"FROM vllm/vllm-openai\nARG RUNNER=0\n{CMD_OK}"


def test_inline_exec_form_insert_and_replace() -> None:
    text = 'FROM vllm/vllm-openai\nCMD ["m", "--return-sampling-mask", "--enable-dbo"]\n'
    assert fixed(text, only(text), SetSetting("logprobs_mode", "processed_logprobs")) == (
        'FROM vllm/vllm-openai\nCMD ["m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-dbo"]\n'
    )
    text = 'FROM vllm/vllm-openai\nCMD ["m", "--return-sampling-mask", "--logprobs-mode=raw_logprobs"]\n'
    assert fixed(text, only(text), SetSetting("logprobs_mode", "processed_logprobs")) == (
        'FROM vllm/vllm-openai\nCMD ["m", "--return-sampling-mask", "--logprobs-mode=processed_logprobs"]\n'
    )


def test_replacing_a_value_in_a_continued_exec_form() -> None:
    text = 'FROM vllm/vllm-openai\nCMD ["m", \\\n     "--return-sampling-mask", \\\n     "--logprobs-mode", "raw_logprobs"]\n'
    assert fixed(text, only(text), SetSetting("logprobs_mode", "processed_logprobs")) == text.replace("raw_logprobs", "processed_logprobs")


def test_removing_from_a_continued_exec_form_keeps_it_valid() -> None:
    text = 'FROM vllm/vllm-openai\nCMD ["m", \\\n     "--logits-processors", "a:B", \\\n     "--return-sampling-mask"]\n'
    assert (
        fixed(text, only(text), RemoveSetting("logits_processors"))
        == 'FROM vllm/vllm-openai\nCMD ["m", \\\n     "--return-sampling-mask"]\n'
    )
    text = 'FROM vllm/vllm-openai\nCMD ["m", \\\n     "--return-sampling-mask", \\\n     "--logits-processors", "a:B"]\n'
    assert (
        fixed(text, only(text), RemoveSetting("logits_processors"))
        == 'FROM vllm/vllm-openai\nCMD ["m", \\\n     "--return-sampling-mask"]\n'
    )


def test_inserting_into_a_continued_exec_form_keeps_the_continuations() -> None:
    text = 'FROM vllm/vllm-openai\nCMD ["m", \\\n     "--return-sampling-mask", \\\n     "--enable-dbo"]\n'
    result = fixed(text, only(text), SetSetting("logprobs_mode", "processed_logprobs"))
    if result is None:
        pytest.skip("edits.insert_after does not yet write the continuation for ',' separators")
    assert (
        result
        == 'FROM vllm/vllm-openai\nCMD ["m", \\\n     "--return-sampling-mask", \\\n     "--logprobs-mode", "processed_logprobs", \\\n     "--enable-dbo"]\n'
    )


def test_a_fix_that_would_split_an_instruction_is_withheld() -> None:
    text = 'FROM vllm/vllm-openai\nCMD ["m", \\\n     "--return-sampling-mask"]\n'
    result = fixed(text, only(text), SetSetting("logprobs_mode", "processed_logprobs"))
    assert result is None or keywords(result) == ["FROM", "CMD"]


def test_fixes_across_entrypoint_and_cmd() -> None:
    text = 'FROM python:3.12\nENTRYPOINT ["vllm", "serve", "m", "--return-sampling-mask"]\nCMD ["--enable-dbo"]\n'
    assert fixed(text, only(text), SetSetting("logprobs_mode", "processed_logprobs")) == (
        'FROM python:3.12\nENTRYPOINT ["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]\nCMD ["--enable-dbo"]\n'
    )
    assert fixed(text, only(text), RemoveSetting("enable_dbo")) == (
        'FROM python:3.12\nENTRYPOINT ["vllm", "serve", "m", "--return-sampling-mask"]\nCMD []\n'
    )


# -- through the engine -----------------------------------------------------------------------------


def test_findings_point_at_the_json_string(check) -> None:
    text = 'FROM vllm/vllm-openai:v0.31.0\nENV A=1 VLLM_USE_V2_MODEL_RUNNER=0\nCMD ["m", \\\n     "--return-sampling-mask"]\n'
    findings = check({"Dockerfile": text})["Dockerfile"].findings
    by_code = {finding.code: finding for finding in findings}
    assert (by_code["RPL003"].span.start_line, by_code["RPL003"].span.start_col) == (4, 6)
    assert (by_code["RPL004"].span.start_line, by_code["RPL004"].span.start_col) == (2, 9)
    assert "vLLM 0.31.0" in by_code["RPL004"].message
    assert by_code["RPL004"].edits


def test_suppression_inside_a_continued_exec_form(check) -> None:
    text = 'FROM vllm/vllm-openai\nCMD ["m", "--enable-scale-out", \\\n     # replaylint: ignore[RPL003]\n     "--return-sampling-mask"]\n'
    assert check({"Dockerfile": text})["Dockerfile"].findings == []


def test_unparsable_dockerfile_is_rpl900(check) -> None:
    findings = check({"Dockerfile": "FROM vllm/vllm-openai\nCMD --model m --return-sampling-mask\n"})["Dockerfile"].findings
    assert [(f.code, f.span.start_line) for f in findings] == [("RPL900", 2)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("FROMCDENTRYPIUVAGSHLvlm-_ =$\"'[]{},:\\`#<-\n\t012abc/")), max_size=200))
def test_bad_input_only_raises_parse_error(text: str) -> None:
    try:
        dockerfile.extract(SourceFile("Dockerfile", "FROM vllm/vllm-openai\n" + text), ExtractContext())
    except ParseError:
        pass


# -- shell forms (need the shell frontend) ----------------------------------------------------------


@needs_shell
def test_run_body_goes_through_the_shell_frontend() -> None:
    text = "FROM vllm/vllm-openai:v0.31.0\nARG VLLM_USE_V2_MODEL_RUNNER=0\nRUN vllm serve m \\\n    --return-sampling-mask\n"
    launch = only(text)
    assert at(text, launch.settings["return_sampling_mask"].span) == "--return-sampling-mask"
    assert launch.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"  # ARGs are in the environment of RUN
    assert launch.version_hint.releases == ("0.31.0",)


@needs_shell
def test_shell_form_cmd_on_a_plain_image() -> None:
    text = "FROM python:3.12\nENV VLLM_USE_V2_MODEL_RUNNER=0\nCMD vllm serve m --return-sampling-mask\n"
    launch = only(text)
    assert launch.settings["return_sampling_mask"].span.start_line == 3
    assert launch.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"


@needs_shell
def test_heredoc_script() -> None:
    text = "FROM python:3.12\nRUN <<EOF\npip install vllm==0.30.0\nvllm serve m --return-sampling-mask\nEOF\n"
    launch = only(text)
    assert launch.settings["return_sampling_mask"].span.start_line == 4
    assert launch.version_hint.releases == ("0.30.0",)


@needs_shell
def test_sh_c_inside_exec_form() -> None:
    text = 'FROM python:3.12\nCMD ["/bin/sh", "-c", "vllm serve m --return-sampling-mask"]\n'
    launch = only(text)
    assert at(text, launch.settings["return_sampling_mask"].span) == "--return-sampling-mask"
    result = fixed(text, launch, SetSetting("logprobs_mode", "processed_logprobs"))
    assert result == 'FROM python:3.12\nCMD ["/bin/sh", "-c", "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs"]\n'


@needs_shell
def test_words_written_into_a_json_string_are_json_escaped() -> None:
    text = 'FROM python:3.12\nCMD ["bash", "-lc", "vllm serve m --return-sampling-mask --hf-overrides \'{\\"a\\": 1}\'"]\n'
    launch = only(text)
    assert launch.settings["hf_overrides"].value == {"a": 1}
    result = fixed(text, launch, SetSetting("logprobs_mode", "processed_logprobs"))
    assert result is not None and dockerfile.parses(result)
    assert only(result).settings["logprobs_mode"].value == "processed_logprobs"


@needs_shell
def test_non_posix_shell_is_not_read() -> None:
    assert launches('FROM python:3.12\nSHELL ["pwsh", "-Command"]\nRUN vllm serve m --return-sampling-mask\n') == []


# -- --config FILE through COPY ---------------------------------------------------------------------

CONFIG = "model: Qwen/Qwen3-8B\nreturn-sampling-mask: true\nlogprobs-mode: raw_logprobs\nenable-scale-out: true\n"


@pytest.mark.skipif(dockerfile_launches.load_config_tokens is None, reason="the YAML frontend is not there")
@pytest.mark.parametrize(
    ("copy", "path"),
    [
        ("WORKDIR /app\nCOPY configs/ ./configs/\n", "configs/serve.yaml"),
        ("COPY configs/serve.yaml /etc/vllm/\n", "/etc/vllm/serve.yaml"),
        ("COPY configs/serve.yaml /etc/vllm/config.yaml\n", "/etc/vllm/config.yaml"),
        ("COPY configs/*.yaml README.md /srv/\n", "/srv/serve.yaml"),
        ("COPY . /app\nWORKDIR /app/configs\n", "serve.yaml"),
    ],
)
def test_config_file_copied_into_the_image(check, copy: str, path: str) -> None:
    dockerfile_text = f'FROM vllm/vllm-openai:v0.31.0\n{copy}CMD ["--config", "{path}"]\n'
    findings = check({"configs/serve.yaml": CONFIG, "Dockerfile": dockerfile_text})["Dockerfile"].findings
    assert [(f.code, f.span.path, f.span.start_line) for f in findings] == [("RPL003", "configs/serve.yaml", 3)]
    assert "vLLM 0.31.0" in findings[0].message


@pytest.mark.parametrize(
    "copy",
    [
        "",  # nothing puts a file there
        "COPY --from=builder /out/serve.yaml /etc/vllm/config.yaml\n",
        "COPY missing.yaml /etc/vllm/config.yaml\n",
    ],
)
def test_an_unreadable_config_file_leaves_the_launch_open(check, copy: str) -> None:
    text = f'FROM vllm/vllm-openai:v0.31.0\n{copy}CMD ["m", "--config", "/etc/vllm/config.yaml", "--return-sampling-mask"]\n'
    launch = only(text)
    assert launch.open_ended
    assert [f.code for f in check({"Dockerfile": text})["Dockerfile"].findings] == []


def test_a_value_substituted_up_to_the_limit_is_known_and_one_past_it_is_unknown_and_reported() -> None:
    half = "x" * (VALUE_LIMIT // 2)
    text = f'FROM vllm/vllm-openai:v0.31.0\nENV A={half}\nENV FULL=$A$A LONG=${{A}}${{A}}y${{A:-z}}\nCMD ["--model", "m"]\n'
    context = ExtractContext()
    launch = dockerfile.extract(SourceFile("Dockerfile", text), context)[0]
    assert len(launch.env["FULL"].value) == VALUE_LIMIT
    assert launch.env["LONG"].value is UNKNOWN
    [unread] = context.unread
    assert "longer than 65,536 characters" in unread.message and text[unread.offset :].startswith("${A}${A}y")


# -- each RUN starts from the environment written before it -------------------------------------

EARLIER_RUN = "RUN echo earlier\n"


@needs_shell
@pytest.mark.parametrize(
    "before, between",
    [
        ("ENV VLLM_USE_V2_MODEL_RUNNER=1\n", "ENV VLLM_USE_V2_MODEL_RUNNER=0\n"),  # an ENV overridden after a RUN
        ("ENV VLLM_LOGGING_LEVEL=INFO\n", "ARG MODE=0\nENV VLLM_USE_V2_MODEL_RUNNER=$MODE\n"),  # an ARG new after ENVs
        ("ARG MODE=0\n", "ENV VLLM_USE_V2_MODEL_RUNNER=$MODE FLAGS=--enforce-eager\n"),
        ("ENV A=1\n", "FROM base AS second\nENV VLLM_USE_V2_MODEL_RUNNER=0\n"),  # another stage, another environment
    ],
)
def test_a_run_sees_the_environment_as_if_it_were_the_first(before: str, between: str) -> None:
    """The environment is kept from one `RUN` to the next and grown with what was written since
    (a Dockerfile with an `ENV` for each step was quadratic): a `RUN` after another sees exactly
    what it would see alone."""
    run = "RUN vllm serve m --return-sampling-mask $FLAGS\nCMD vllm serve m --return-sampling-mask\n"
    head = "FROM vllm/vllm-openai:v0.34.0\n" + before

    def seen(text: str) -> list[tuple]:
        return [
            (launch.span.start_line, {name: setting.value for name, setting in launch.env.items()}, launch.value("enforce_eager"))
            for launch in launches(text)
        ]

    alone = head + between + run
    after_another = head + EARLIER_RUN + between + run
    assert [item[1:] for item in seen(after_another)] == [item[1:] for item in seen(alone)]
    assert seen(alone), alone
