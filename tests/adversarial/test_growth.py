"""Values that grow, and numbers too long to read, end in a finding or a message (issue 26).

Each input is one an attacker sent: 30 lines of `ENV A1=$A0$A0` (718 bytes) took 4.2 GB (40 lines:
a MemoryError next to "All checks passed!"); YAML merge keys nested 8 levels (664 bytes) ran
for minutes, and 7 levels passed silently after the 30 s budget; a list of aliases of lists
(9^9 items) in a `--config` file ran out of memory; a 5,000-digit TOML integer in
`pyproject.toml`, `--config` or a pin file ended in a traceback. Each runs replaylint as a
separate process, bounded in time and memory (`test_costs.check`).
"""

from __future__ import annotations

import time

from replaylint.engine.checker import Checker
from replaylint.engine.config import Config

from .conftest import replaylint
from .test_costs import LAUNCH, SECONDS, check, codes

BIG = "1" * 5000  # Python converts at most 4,300 digits to an int


def doubling(keyword: str, lines: int, step: str = "${{A{0}}}${{A{0}}}") -> str:
    """`ENV A1=${A0}${A0}` ... : the value doubles each line."""
    body = "".join(f"{keyword} A{i}={step.format(i - 1)}\n" for i in range(1, lines + 1))
    return f"FROM vllm/vllm-openai:v0.31.0\n{keyword} A0=xxxxxxxxxxxxxxxxxxxxxxxx\n{body}RUN {LAUNCH}\n"


def merge_bomb(levels: int) -> str:
    """`<<: [*a, *a, ...]` nested `levels` deep, merged into the container that starts vLLM."""
    anchors = "x-l0: &l0 {image: vllm/vllm-openai:v0.31.0}\n" + "".join(
        f"x-l{i}: &l{i} {{<<: [{', '.join([f'*l{i - 1}'] * 10)}]}}\n" for i in range(1, levels + 1)
    )
    return (
        anchors
        + f"spec:\n  containers:\n    - <<: *l{levels}\n      name: vllm\n      args: [--model, m, --return-sampling-mask, --enable-scale-out]\n"
    )


def env_doubling(lines: int, extra: str = "") -> str:
    """A container's `env` whose `value: $(A0)$(A0)` ... doubles each item (Kubernetes expands it)."""
    env = "".join(f'        - {{name: A{i}, value: "$(A{i - 1})$(A{i - 1})"}}\n' for i in range(1, lines + 1))
    return (
        "spec:\n  containers:\n    - name: vllm\n      image: vllm/vllm-openai:v0.31.0\n"
        "      args: [--model, m, --return-sampling-mask, --enable-scale-out, --served-model-name, $(NAME)]\n"
        f"      env:\n        - {{name: A0, value: xxxxxxxxxxxxxxxxxxxxxxxx}}\n{env}{extra}        - {{name: NAME, value: $(A1)}}\n"
    )


def alias_bomb(levels: int) -> str:
    """A list of 10 aliases of a list of 10 aliases ...: 10^levels items written out."""
    lists = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]\n" for i in range(1, levels + 1)
    )
    return lists + f"model: m\nreturn-sampling-mask: true\nlogits-processors: *l{levels}\n"


def not_analysed(tmp_path, name: str, text: str) -> str:
    """The one finding of a file that is RPL902 only, checked within the time limit."""
    (tmp_path / name).write_text(text)
    status, findings, _, elapsed = check(tmp_path, name)
    assert status == 1 and codes(findings, name) == ["RPL902"] and elapsed < SECONDS
    return findings[0]


# -- Dockerfile: ENV and ARG values -------------------------------------------------------------


def test_30_env_doublings_are_rpl902_and_the_launch_is_still_checked(tmp_path) -> None:
    (tmp_path / "Dockerfile").write_text(doubling("ENV", 30))
    status, findings, _, elapsed = check(tmp_path, "Dockerfile")
    assert status == 1 and sorted(codes(findings, "Dockerfile")) == ["RPL003", "RPL902"]
    # A0 has 24 characters, A12 would have 98,304: its value is where the growth is reported
    assert "Dockerfile:14:9: RPL902 file not fully analysed: values that substitution makes longer than 65,536 characters" in findings[0]
    assert elapsed < SECONDS


def test_40_env_doublings_end_without_a_memory_error(tmp_path) -> None:
    (tmp_path / "Dockerfile").write_text(doubling("ENV", 40))
    status, findings, err, _ = check(tmp_path, "Dockerfile")
    assert status == 1 and "RPL902" in codes(findings, "Dockerfile") and "MemoryError" not in err


def test_arg_doublings_and_default_forms_are_rpl902(tmp_path) -> None:
    (tmp_path / "Dockerfile").write_text(doubling("ARG", 30))
    (tmp_path / "defaults.Dockerfile").write_text(doubling("ARG", 30, "${{A{0}:-x}}${{A{0}:+$A{0}}}"))
    status, findings, _, _ = check(tmp_path, "Dockerfile", "defaults.Dockerfile")
    assert status == 1
    assert sorted(codes(findings, "Dockerfile")) == sorted(codes(findings, "defaults.Dockerfile")) == ["RPL003", "RPL902"]


def test_many_copies_of_a_long_value_stop_at_the_budget(tmp_path) -> None:
    # every copy stays under the length limit; together they are 200 x 49,152 characters
    copies = "".join(f"ENV B{i}=$A11\n" for i in range(200))
    finding = not_analysed(tmp_path, "Dockerfile", doubling("ENV", 11).replace("RUN ", copies + "RUN ", 1))
    assert "needs more work than the 4,000,000 units" in finding


def test_ordinary_substitution_is_read_as_before(tmp_path) -> None:
    # 10 doublings (24 KB) is far past any real value, and still read: no RPL902
    dockerfile = doubling("ENV", 10).replace(
        f"RUN {LAUNCH}\n", "ARG MODEL=Qwen/Qwen3-8B\nENV MASK=--return-sampling-mask\nRUN vllm serve ${MODEL:-m} $MASK --enable-scale-out\n"
    )
    (tmp_path / "Dockerfile").write_text(dockerfile)
    status, findings, _, _ = check(tmp_path, "Dockerfile")
    assert status == 1 and codes(findings, "Dockerfile") == ["RPL003"]
    assert findings[0].startswith("Dockerfile:14:")  # at `ENV MASK=...`, the value that turns the mask on


# -- YAML: merge keys and aliases ---------------------------------------------------------------


def test_merge_keys_nested_8_levels_are_read_in_bounded_time(tmp_path) -> None:
    # 10^8 merges as written; each node's merge is resolved once, so the launch is checked
    (tmp_path / "pod.yaml").write_text(merge_bomb(8))
    status, findings, _, elapsed = check(tmp_path, "pod.yaml")
    assert status == 1 and codes(findings, "pod.yaml") == ["RPL003"] and elapsed < SECONDS


def test_merge_keys_give_the_findings_of_the_merged_mapping(tmp_path) -> None:
    # the image comes from the merged anchor: without it the container would be no vLLM launch
    (tmp_path / "pod.yaml").write_text(merge_bomb(2))
    (tmp_path / "plain.yaml").write_text(merge_bomb(0).replace("<<: *l0", "image: vllm/vllm-openai:v0.31.0"))
    _, findings, _, _ = check(tmp_path, "pod.yaml", "plain.yaml")
    assert codes(findings, "pod.yaml") == codes(findings, "plain.yaml") == ["RPL003"]


def test_merges_nested_deeper_than_64_are_rpl902(tmp_path) -> None:
    merges = "{<<: " * 70 + "{image: vllm/vllm-openai:v0.31.0}" + "}" * 70
    finding = not_analysed(tmp_path, "pod.yaml", merge_bomb(0).replace("*l0", merges))
    assert "merge keys (`<<: *base`) nested deeper than 64 are not read" in finding


def test_30_kubernetes_env_doublings_are_rpl902(tmp_path) -> None:
    # before: 22 doublings took 3 GB and 21 s, then "internal error" and "All checks passed!"
    finding = not_analysed(tmp_path, "pod.yaml", env_doubling(30))
    # A12 would have 98,304 characters: its second `$(A11)` is where the growth is reported
    assert finding.startswith("pod.yaml:19:37: RPL902 file not fully analysed: values that substitution makes longer than 65,536")


def test_many_copies_of_a_long_kubernetes_env_value_are_rpl902(tmp_path) -> None:
    copies = "".join(f'        - {{name: B{i}, value: "$(A11)"}}\n' for i in range(300))
    finding = not_analysed(tmp_path, "pod.yaml", env_doubling(11, copies))
    assert "the values that substitution makes hold more than 4,000,000 characters together" in finding


def test_ordinary_kubernetes_env_references_are_read_as_before(tmp_path) -> None:
    # 10 doublings (24 KB) and `$(NAME)` in args: the launch is judged, nothing is RPL902
    (tmp_path / "pod.yaml").write_text(env_doubling(10))
    status, findings, _, _ = check(tmp_path, "pod.yaml")
    assert status == 1 and codes(findings, "pod.yaml") == ["RPL003"]


def test_a_long_scalar_repeated_by_aliases_is_rpl902(tmp_path) -> None:
    # 180 KB: 20,000 aliases of a 100 KB word in args; before, over 100 s
    args = ", ".join(["*s"] * 20_000)
    text = f"x-s: &s {'x' * 100_000}\n" + merge_bomb(0).replace("--return-sampling-mask", f"--return-sampling-mask, {args}")
    finding = not_analysed(tmp_path, "pod.yaml", text)
    assert finding.startswith(
        "pod.yaml:1:6: RPL902 file not fully analysed: its aliases (`*name`) stand for more than 4,000,000 characters"
    )


def test_short_scalars_repeated_by_aliases_are_read(tmp_path) -> None:
    args = ", ".join(["*s"] * 20_000)
    text = "x-s: &s --enforce-eager\n" + merge_bomb(0).replace("--return-sampling-mask", f"--return-sampling-mask, {args}")
    (tmp_path / "pod.yaml").write_text(text)
    status, findings, _, _ = check(tmp_path, "pod.yaml")
    assert status == 1 and codes(findings, "pod.yaml") == ["RPL003"]


def test_an_alias_bomb_in_a_config_file_is_rpl902_where_it_is_named(tmp_path) -> None:
    # 10^8 items written out: before, the check ran out of memory ("internal error")
    (tmp_path / "config.yaml").write_text(alias_bomb(8))
    (tmp_path / "serve.sh").write_text("vllm serve --config config.yaml\n")
    status, findings, err, elapsed = check(tmp_path, "serve.sh", "config.yaml")
    assert status == 1 and codes(findings, "serve.sh") == codes(findings, "config.yaml") == ["RPL902"]
    assert all("stand for more than 4,000,000 YAML nodes to read" in finding for finding in findings)
    # the anchor of the first list that alone is past the bound: `&l6 [...]`, 10^7 items
    assert any(finding.startswith("config.yaml:7:5: RPL902") for finding in findings)
    assert elapsed < SECONDS


def test_the_checker_the_language_server_runs_is_bounded_too() -> None:
    # the server's workers call the same Checker.check_text with the document's text
    started = time.monotonic()
    result = Checker(Config()).check_text("pod.yaml", "# vllm serve\n" + alias_bomb(8), "yaml")
    assert [finding.code for finding in result.findings] == ["RPL902"]
    assert time.monotonic() - started < SECONDS


# -- numbers too long: TOML (and JSON) ----------------------------------------------------------


def test_a_long_integer_in_pyproject_is_a_message_naming_the_file_and_key(tmp_path) -> None:
    (tmp_path / "pyproject.toml").write_text(f'[tool.replaylint]\ntarget-vllm = "0.31.0"\nline-length = {BIG}\n')
    (tmp_path / "serve.sh").write_text(LAUNCH + "\n")
    done = replaylint("check", "--no-cache", ".", cwd=tmp_path)
    err = done.stderr.decode()
    assert done.returncode == 2 and "Traceback" not in err and "All checks passed" not in done.stdout.decode()
    assert "pyproject.toml: not valid TOML: an integer of 5,000 digits (`line-length`)" in err
    assert "(at line 3, column 15)" in err


def test_a_long_integer_in_a_config_file_or_option_is_a_message(tmp_path) -> None:
    (tmp_path / "lint.toml").write_text(f"ignore = []\nseed = [1, {BIG}]\n")
    done = replaylint("check", "--no-cache", "--config", "lint.toml", ".", cwd=tmp_path)
    assert done.returncode == 2 and "lint.toml: not valid TOML: an integer of 5,000 digits (`seed`)" in done.stderr.decode()
    done = replaylint("check", "--no-cache", "--config", f"line-length = {BIG}", ".", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr.decode() and "an integer of 5,000 digits" in done.stderr.decode()


def test_a_long_integer_in_a_pin_file_is_a_note_and_the_check_goes_on(tmp_path) -> None:
    (tmp_path / "uv.lock").write_text(f'version = 1\n[[package]]\nname = "vllm"\nversion = "0.31.0"\nsize = {BIG}\n')
    (tmp_path / "serve.sh").write_text(LAUNCH + "\n")
    status, findings, err, _ = check(tmp_path, ".")
    assert status == 1 and codes(findings, "serve.sh") == ["RPL003"]
    assert "uv.lock: not valid TOML (an integer of 5,000 digits (`size`)" in err and "its pins are ignored" in err


def test_a_long_integer_in_a_checked_toml_file_is_rpl900(tmp_path) -> None:
    (tmp_path / "rl.toml").write_text(f"[inference]\nseed = {BIG}\n\n[inference.vllm]\nenable_return_sampling_mask = true\n")
    status, findings, _, _ = check(tmp_path, "rl.toml")
    assert status == 1 and findings == [
        "rl.toml:2:8: RPL900 TOML syntax error: an integer of 5,000 digits (`seed`): TOML integers are 64-bit"
    ]


def test_a_long_integer_in_json_is_no_internal_error(tmp_path) -> None:
    # Python's json.load refuses it too, so the launcher that reads this file never starts vLLM
    (tmp_path / "engine.json").write_text(f'{{"engine": {{"model": "m", "return_sampling_mask": true, "seed": {BIG}}}}}')
    status, findings, err, _ = check(tmp_path, "engine.json")
    assert status == 0 and findings == []


def test_the_language_server_checks_next_to_a_pyproject_with_a_long_integer(tmp_path) -> None:
    from replaylint.server.analysis import Analysis, Workspace

    (tmp_path / "pyproject.toml").write_text(f"[tool.replaylint]\n[tool.other]\nline-length = {BIG}\n")
    path = str(tmp_path / "serve.sh")
    analysis = Analysis()
    findings = analysis.findings(Workspace(roots=(str(tmp_path),), texts={path: LAUNCH + "\n"}), path)
    assert [finding.code for finding in findings] == ["RPL003"]
    assert any("an integer of 5,000 digits" in message for message, _ in analysis.logs)
