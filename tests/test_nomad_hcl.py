"""Nomad jobs in HCL as tree-sitter-hcl reads them (`frontends/command_lines/hcl_tree`): comments of
the three kinds, heredocs holding other heredocs' markers and brackets, interpolations that hold
quotes and braces, escapes, and a file with a syntax error (RPL902 at the error, never a traceback).
The findings of the jobs themselves: tests/test_rpl3_round22_requests.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.frontends.command_lines.nomad_hcl import scripts
from replaylint.source import NotAnalysed, SourceFile
from tests.test_rpl3_round22_requests import found, reported, write

EXEC_JOB = """job "policy" {
  group "vllm" {
    task "server" {
      driver = "raw_exec"
      TEMPLATE
      config {
        command = "vllm"
        ARGS
      }
    }
  }
}
"""
RAW_ARGS = 'args = ["serve", "m", "--return-sampling-mask", "--enable-scale-out", "--logprobs-mode", "raw_logprobs"]'


def job(args: str = RAW_ARGS, template: str = "") -> str:
    return EXEC_JOB.replace("TEMPLATE", template).replace("ARGS", args)


def words(text: str) -> str:
    (script,) = scripts(SourceFile("policy.nomad.hcl", text))
    return script.expanded.text


def test_comments_of_the_three_kinds_are_not_words(tmp_path: Path) -> None:
    args = """/* args = ["serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"] */
        args = [
          "serve", "m#1", "--return-sampling-mask", # "--logprobs-mode", "processed_logprobs",
          "--enable-scale-out", // "--logprobs-mode=processed_logprobs",
          "--logprobs-mode", /* "processed_logprobs" */ "raw_logprobs",
        ]"""
    write(tmp_path, {"policy.nomad.hcl": job(args)})
    assert found(tmp_path) == [("RPL003", "policy.nomad.hcl", 12)]
    assert words(job(args)) == "vllm serve 'm#1' --return-sampling-mask --enable-scale-out --logprobs-mode raw_logprobs"


def test_a_heredoc_holding_another_heredoc_and_brackets_ends_at_its_own_marker(tmp_path: Path) -> None:
    template = """template {
        destination = "local/start.sh"
        data        = <<-EOH
          cat <<EOF > /tmp/x
          }]} "
          EOF
        EOH
      }"""
    write(tmp_path, {"policy.nomad.hcl": job(template=template)})
    assert found(tmp_path) == [("RPL003", "policy.nomad.hcl", 15)]


def test_an_interpolation_holding_quotes_and_braces_is_one_word_not_known(tmp_path: Path) -> None:
    args = """args = [
          "serve", "${lookup({ a = "}" }, "a", "Qwen/Qwen3-8B")}",
          "--return-sampling-mask", "--enable-scale-out",
          "--logprobs-mode", "raw_logprobs",
        ]"""
    write(tmp_path, {"policy.nomad.hcl": job(args)})
    assert found(tmp_path) == [("RPL003", "policy.nomad.hcl", 11)]
    assert words(job(args)).split()[2:] == [
        '"${__replaylint_unknown_1}"',
        "--return-sampling-mask",
        "--enable-scale-out",
        "--logprobs-mode",
        "raw_logprobs",
    ]


@pytest.mark.parametrize(
    ("written", "word"),
    [
        (r'"caf\u00e9"', "'café'"),
        (r'"a\"b"', "'a\"b'"),
        (r'"tab\there"', "'tab\there'"),
        (r'"$${NOMAD_PORT_http}"', "'${NOMAD_PORT_http}'"),
        (r'"%%{ if x }"', "'%{ if x }'"),
        ('"${NOMAD_PORT_http}"', '"${__replaylint_unknown_1}"'),
        ('"%{ if true }8000%{ endif }"', '"${__replaylint_unknown_1}"'),
        ("<<EOT\n--port\nEOT\n", "'--port\n'"),
        ("<<-EOT\n          --port\n          EOT\n", '"${__replaylint_unknown_1}"'),  # how much indentation goes: not guessed
        ("<<EOT\n--port=${NOMAD_PORT_http}\nEOT\n", '"${__replaylint_unknown_1}"'),
    ],
)
def test_a_strings_value_is_what_nomad_passes(written: str, word: str) -> None:
    assert words(job(f'args = ["serve", "m", {written}]')) == f"vllm serve m {word}"


@pytest.mark.parametrize(
    ("broken", "line"),
    [
        (RAW_ARGS.replace('"m", ', '"m" '), 8),  # a comma missing between two items
        (RAW_ARGS.replace('"raw_logprobs"]', '"raw_logprobs"'), 9),  # a list never closed
        (RAW_ARGS.replace("]", "]\n      }\n    }"), 13),  # one `}` too many: the last but one is the job's
    ],
)
def test_a_file_with_a_syntax_error_is_reported_unread_at_the_error(tmp_path: Path, broken: str, line: int) -> None:
    write(tmp_path, {"policy.nomad.hcl": job(broken)})
    (finding,) = reported(tmp_path, "--no-cache")
    assert (finding["code"], finding["location"]["row"]) == ("RPL902", line), finding
    assert "tree-sitter-hcl cannot parse this HCL" in finding["message"] and "its tasks are not read" in finding["message"]
    with pytest.raises(NotAnalysed):
        scripts(SourceFile("policy.nomad.hcl", job(broken)))


def test_hcl_that_is_no_nomad_job_is_not_read_even_when_it_does_not_parse(tmp_path: Path) -> None:
    # a Packer template (HCL2 with a typo) whose provisioner names a task and starts vLLM: no `job` block, no Nomad task
    packer = """source "docker" "vllm" { image = "vllm/vllm-openai:v0.34.0" }
build {
  sources = ["source.docker.vllm"]
  provisioner "shell" {
    inline = ["vllm serve m --return-sampling-mask"  # the task of this image: a smoke test
  }
}
"""
    write(tmp_path, {"image.pkr.hcl": packer})
    assert reported(tmp_path, "--no-cache") == []
    write(tmp_path, {"image.pkr.hcl": "", "policy.nomad.hcl": job(RAW_ARGS.replace('"m", ', '"m" '))})
    assert [finding["code"] for finding in reported(tmp_path, "--no-cache")] == ["RPL902"]  # a job that does not parse still is
