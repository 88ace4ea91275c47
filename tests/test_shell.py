"""The shell frontend: words, variables, launchers, open-endedness, spans, fixes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from replaylint.edits import apply_edits
from replaylint.frontends import ExtractContext, ParseError, SourceFile, shell
from replaylint.model import UNKNOWN, Launch, LaunchKind, Setting
from replaylint.readers import shell as words_shell
from replaylint.readers.shell import grammar


def launches(text: str, files: dict[str, str] | None = None, path: str = "run.sh") -> list[Launch]:
    files = files or {}
    return shell.extract(SourceFile(path, text), ExtractContext(read_text=files.get))


def only(text: str, **extra: object) -> Launch:
    found = launches(text, **extra)  # type: ignore[arg-type]
    assert len(found) == 1, found
    return found[0]


def value(text: str, name: str) -> object:
    setting = only(text).get(name)
    return None if setting is None else setting.value


def written(text: str, setting: Setting) -> str:
    """The file text a setting's span covers."""
    return text[setting.span.start : setting.span.end]


def findings(check, text: str, release: str | None = None, name: str = "run.sh") -> list:
    return check({name: text}, release=release)[name].findings


def fixed(check, text: str, codes: tuple[str, ...] = (), name: str = "run.sh", release: str | None = None) -> str:
    """`text` after the fixes of `codes` (all but the RPL3xx warnings' when none are named)."""
    found = [f for f in findings(check, text, release, name=name) if f.code in codes or not (codes or f.code.startswith("RPL3"))]
    result, left = apply_edits(text, [edit for finding in found for edit in finding.edits])
    assert left == []
    return result


# -- words ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("processed_logprobs", "processed_logprobs"),
        ("'processed_logprobs'", "processed_logprobs"),
        ('"processed_logprobs"', "processed_logprobs"),
        ("processed'_'logprobs", "processed_logprobs"),
        ('proc"essed"_logprobs', "processed_logprobs"),
        ("$'processed_logprobs'", "processed_logprobs"),
        ("$'processed\\x5flogprobs'", "processed_logprobs"),
        ("processed\\_logprobs", "processed_logprobs"),
        ('"processed\\_logprobs"', "processed\\_logprobs"),
        ('"\\$x"', "$x"),
    ],
)
def test_quote_removal(word: str, expected: str) -> None:
    assert value(f"vllm serve m --logprobs-mode {word}\n", "logprobs_mode") == expected


def test_json_value_in_single_quotes() -> None:
    text = """vllm serve m -sc '{"method": "ngram", "num_speculative_tokens": 3}'\n"""
    assert value(text, "speculative_config") == {"method": "ngram", "num_speculative_tokens": 3}


def test_escaped_double_quotes_inside_double_quotes() -> None:
    text = 'vllm serve m --speculative-config "{\\"method\\": \\"ngram\\"}"\n'
    assert value(text, "speculative_config") == {"method": "ngram"}


def test_concatenated_option_and_variable() -> None:
    text = 'MODE=raw_logprobs\nvllm serve m --return-sampling-mask --logprobs-mode="$MODE"\n'
    launch = only(text)
    assert launch.value("logprobs_mode") == "raw_logprobs"
    assert written(text, launch.settings["logprobs_mode"]) == '--logprobs-mode="$MODE"'


def test_glob_and_tilde_words_are_unknown() -> None:
    assert value("vllm serve m --download-dir ~/models\n", "download_dir") is UNKNOWN
    assert value("vllm serve m --logits-processors mod*:X\n", "logits_processors") is UNKNOWN


def test_brace_expansion_is_a_spread() -> None:
    assert only("vllm serve m --x {a,b}\n").open_ended


# -- variables and arrays -------------------------------------------------------------------


def test_variable_assigned_once() -> None:
    text = 'MODEL=Qwen/Qwen3-8B\nvllm serve "$MODEL" --return-sampling-mask\n'
    launch = only(text)
    assert launch.value("model") == "Qwen/Qwen3-8B"
    assert written(text, launch.settings["model"]) == '"$MODEL"'


def test_latest_assignment_wins() -> None:
    text = "MODE=raw_logprobs\nMODE=processed_logprobs\nvllm serve m --logprobs-mode $MODE\n"
    assert value(text, "logprobs_mode") == "processed_logprobs"


def test_variable_from_the_environment_is_unknown() -> None:
    assert value('vllm serve m --logprobs-mode "$MODE"\n', "logprobs_mode") is UNKNOWN


def test_default_expansion_of_a_variable_the_file_never_sets_is_taken_on_a_condition() -> None:
    text = 'MODE=${MODE:-raw_logprobs}\nvllm serve m --logprobs-mode "$MODE"\n'
    launch = only(text)
    assert launch.value("logprobs_mode") == "raw_logprobs"
    assert [(a.condition, text[a.span.start : a.span.end]) for a in launch.assumptions if a.span] == [("`MODE` is unset", '"$MODE"')]
    assert value('MODE=$1\nMODE=${MODE:-raw_logprobs}\nvllm serve m --logprobs-mode "$MODE"\n', "logprobs_mode") is UNKNOWN


def test_default_expansion_of_a_known_variable() -> None:
    assert value('A=x\nvllm serve m --logprobs-mode "${A:+raw_logprobs}"\n', "logprobs_mode") == "raw_logprobs"
    assert value('unset A\nvllm serve m --logprobs-mode "${A:-raw_logprobs}"\n', "logprobs_mode") == "raw_logprobs"
    assert value('A=\nvllm serve m --logprobs-mode "${A-raw_logprobs}"\n', "logprobs_mode") == ""


def test_array_elements_keep_their_spans() -> None:
    text = (
        "ARGS=(\n"
        "  --tensor-parallel-size 2   # two GPUs\n"
        "\n"
        "  --return-sampling-mask\n"
        ")\n"
        "ARGS+=(--logprobs-mode raw_logprobs)\n"
        'vllm serve m "${ARGS[@]}"\n'
    )
    launch = only(text)
    assert launch.value("tensor_parallel_size") == 2
    assert written(text, launch.settings["return_sampling_mask"]) == "--return-sampling-mask"
    assert launch.settings["return_sampling_mask"].span.start_line == 4
    assert written(text, launch.settings["logprobs_mode"]) == "--logprobs-mode raw_logprobs"
    assert launch.settings["logprobs_mode"].span.start_line == 6


def test_array_star_and_index() -> None:
    assert value('A=(raw_logprobs x)\nvllm serve m --logprobs-mode "${A[0]}"\n', "logprobs_mode") == "raw_logprobs"
    assert value('A=(a b)\nvllm serve m --served-model-name "${A[*]}"\n', "served_model_name") == ["a b"]


def test_split_string_variable_points_inside_the_definition() -> None:
    text = 'FLAGS="--tensor-parallel-size 2 --return-sampling-mask"\nvllm serve m $FLAGS\n'
    launch = only(text)
    mask = launch.settings["return_sampling_mask"]
    assert mask.span.start_line == 1 and written(text, mask) == "--return-sampling-mask"


def test_unset_and_append_to_unknown_array() -> None:
    launch = only('ARGS+=(--return-sampling-mask)\nvllm serve m "${ARGS[@]}"\n')
    assert launch.open_ended and launch.value("return_sampling_mask") is True


def test_assignments_joined_with_the_next_line_by_tree_sitter() -> None:
    # tree-sitter-bash reads `A=1 B=2` + newline + command as one command; bash does not.
    text = 'A=1 VLLM_USE_V2_MODEL_RUNNER=0\nvllm serve "m" --return-sampling-mask\n'
    launch = only(text)
    assert launch.span.start_line == 2
    assert launch.env["VLLM_USE_V2_MODEL_RUNNER"].value is UNKNOWN  # not exported here


# -- environment ----------------------------------------------------------------------------


def test_export_prefix_env_and_wrappers() -> None:
    assert only("export VLLM_USE_V2_MODEL_RUNNER=0\nvllm serve m\n").env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"
    assert only("VLLM_USE_V2_MODEL_RUNNER=1 vllm serve m\n").env["VLLM_USE_V2_MODEL_RUNNER"].value == "1"
    assert only("env VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m\n").env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"
    assert only("set -a\nVLLM_USE_V2_MODEL_RUNNER=0\nvllm serve m\n").env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"
    assert only("VLLM_USE_V2_MODEL_RUNNER=0\nexport VLLM_USE_V2_MODEL_RUNNER\nvllm serve m\n").env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"


def test_an_assignment_with_an_unknown_value_still_names_its_variable() -> None:
    # realworld B1 (LMCache examples): `env NAME="$VAR" vllm serve ...` was not read at all
    launch = only('env CUDA_VISIBLE_DEVICES="${GPU}" vllm serve m --return-sampling-mask\n')
    assert launch.settings["return_sampling_mask"].value is True and not launch.open_ended
    assert only('env VLLM_USE_V2_MODEL_RUNNER="$R" vllm serve m\n').env["VLLM_USE_V2_MODEL_RUNNER"].value is UNKNOWN
    # A prefix with an unknown value replaces an exported one; it does not inherit it.
    assert (
        only('export VLLM_USE_V2_MODEL_RUNNER=0\nVLLM_USE_V2_MODEL_RUNNER="$R" vllm serve m\n').env["VLLM_USE_V2_MODEL_RUNNER"].value
        is UNKNOWN
    )
    assert launches('env "$SETTINGS" vllm serve m\n') == []  # `$X` alone may be the command
    # `env "$NAME=$VALUE" vllm serve` (vLLM's EPD and nixl tests): a variable nobody can name
    named_later = only('env "$DEVICE_AFFINITY_ENV=$GPU" vllm serve m --return-sampling-mask\n')
    assert named_later.env_open and named_later.settings["return_sampling_mask"].value is True
    optional = only('env ${GPU_VAR}="$G" ${SSM:+SSM=$SSM} vllm serve m --return-sampling-mask\n')  # vLLM's spec_decode_acceptance_test.sh
    assert optional.env_open and optional.settings["model"].value == "m"


def test_a_command_line_kept_in_a_string_with_unknown_pieces_is_read_as_a_script() -> None:
    # realworld B3 (vLLM's nixl tests): `CMD="... vllm serve $MODEL ..."; bash -c "$CMD" &`
    text = 'M=${M:-"Qwen/Qwen3-0.6B"}\nCMD="VLLM_LOGGING_LEVEL=DEBUG vllm serve $M --return-sampling-mask"\nbash -c "${CMD}" &\neval "$CMD &"\n'
    found = launches(text)
    assert len(found) == 2 and all(launch.settings["return_sampling_mask"].value is True for launch in found)
    assert all(launch.open_ended for launch in found)  # $M may hold more words, such as --logprobs-mode
    both = only('P=${P:-8000}\nCMD="vllm serve m --return-sampling-mask --logits-processors a:B --port $P"\nbash -c "$CMD"\n')
    assert both.settings["logits_processors"].value == ["a:B"]
    assert launches('CMD="vllm serve $M --return-sampling-mask"\nbash -c $CMD\n') == []  # unquoted: the split is unknown
    # a loop that only appends to it keeps its known start (vLLM's nixl accuracy tests: `for arg in
    # ...; do BASE_CMD="${BASE_CMD} $arg"; done; eval "$BASE_CMD &"`)
    looped = only('C="vllm serve m --return-sampling-mask"\nfor a in "$@"; do C="${C} $a"; done\neval "$C &"\n')
    assert looped.open_ended and looped.settings["return_sampling_mask"].value is True
    assert launches('C="vllm serve m"\nfor a in $(ls); do C="$a ${C}"; done\neval "$C"\n') == []  # a prepend: the start is gone
    # more paths than are followed one by one keep what they share (vLLM's nixl accuracy tests)
    branches = "".join(f'if [[ -n "$F{i}" ]]; then C="${{C}} --flag-{i}"; fi\n' for i in range(5))
    text = 'if [[ -z "$DP" ]]; then P="VLLM_PORT=$A"; else P="VLLM_PORT=$B"; fi\n'
    text += 'C="$P vllm serve m --return-sampling-mask"\n' + branches + 'eval "$C &"\n'
    assert all(launch.settings["return_sampling_mask"].value is True for launch in launches(text)) and launches(text)
    # handed to a function that runs it (vLLM's run_multi_connector_accuracy_test.sh)
    handed = (
        'start() {\n  local command=$1\n  setsid bash -c "$command" &\n}\nC="$VIS=$GPU vllm serve $M --return-sampling-mask"\nstart "$C"\n'
    )
    assert only(handed).settings["return_sampling_mask"].value is True
    # such a string grown into an array is one unknown element (this crashed on LMCache's engines/vllm.sh)
    grown = only('A="--port $P"\nA+=(--enforce-eager)\nvllm serve m --return-sampling-mask "${A[@]}"\n')
    assert grown.open_ended and grown.settings["enforce_eager"].value is True


def test_env_that_does_not_reach_the_launch() -> None:
    assert only("export VLLM_USE_V2_MODEL_RUNNER=0\nenv -i PATH=/bin vllm serve m\n").env == {}
    assert only("export VLLM_USE_V2_MODEL_RUNNER=0\nenv -u VLLM_USE_V2_MODEL_RUNNER vllm serve m\n").env == {}
    assert only("export VLLM_USE_V2_MODEL_RUNNER=0\nunset VLLM_USE_V2_MODEL_RUNNER\nvllm serve m\n").env == {}
    assert only("export VLLM_USE_V2_MODEL_RUNNER=0\ndocker run vllm/vllm-openai m\n").env == {}
    assert only("export VLLM_USE_V2_MODEL_RUNNER=0\nsudo vllm serve m\n").env["VLLM_USE_V2_MODEL_RUNNER"].value is UNKNOWN
    assert only("export VLLM_USE_V2_MODEL_RUNNER=0\nsudo -E vllm serve m\n").env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"


def test_export_in_a_subshell_stays_there() -> None:
    assert only("(export VLLM_USE_V2_MODEL_RUNNER=0)\nvllm serve m\n").env == {}


def test_unreadable_source_makes_everything_unknown() -> None:
    launch = only('MODE=raw_logprobs\nsource ./settings.sh\nvllm serve m --logprobs-mode "$MODE"\n')
    assert launch.value("logprobs_mode") is UNKNOWN and launch.env_open
    launch = only('MODE=raw_logprobs\nsource .venv/bin/activate\nvllm serve m --logprobs-mode "$MODE"\n')
    assert launch.value("logprobs_mode") == "raw_logprobs" and not launch.env_open


# -- launchers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "label"),
    [
        ("vllm serve m", "vllm serve"),
        (".venv/bin/vllm serve m", ".venv/bin/vllm serve"),
        ("python3 -u -m vllm.entrypoints.openai.api_server --model m", "python3 -u -m vllm.entrypoints.openai.api_server"),
        ("python3.11 -O -m vllm.entrypoints.openai.api_server --model m", "python3.11 -O -m vllm.entrypoints.openai.api_server"),
        ("python -m dynamo.vllm --model m", "python -m dynamo.vllm"),
        ("exec nohup vllm serve m", "vllm serve"),
        ("time vllm serve m", "vllm serve"),
        ("sudo -E -u svc vllm serve m", "vllm serve"),
        ("setsid -f vllm serve m", "vllm serve"),
        ("numactl --cpunodebind=0 -m 0 vllm serve m", "vllm serve"),
        ("taskset -c 0-7 vllm serve m", "vllm serve"),
        ("timeout --signal=INT 600 vllm serve m", "vllm serve"),
        ("nice -n 5 stdbuf -oL vllm serve m", "vllm serve"),
        ("srun -N 1 --gres=gpu:8 vllm serve m", "vllm serve"),
        ("CUDA_VISIBLE_DEVICES=0,1 env -i PATH=/usr/bin vllm serve m", "vllm serve"),
        ("uv run --with vllm vllm serve m", "vllm serve"),
        ("uv run -m vllm.entrypoints.openai.api_server --model m", "uv run -m vllm.entrypoints.openai.api_server"),
        ("conda run -n serve vllm serve m", "vllm serve"),
        ('"$VLLM_BIN" serve m', '"$VLLM_BIN" serve'),
        ("docker run --rm -it --gpus all -p 8000:8000 vllm/vllm-openai:v0.31.0 m", "docker run vllm/vllm-openai:v0.31.0"),
        ("podman run --device nvidia.com/gpu=all docker.io/vllm/vllm-openai:latest m", "podman run docker.io/vllm/vllm-openai:latest"),
        ("docker run --entrypoint vllm myorg/server:1 serve m", "vllm serve"),
        (
            "docker run nvcr.io/nvidia/pytorch:24.01 python -m vllm.entrypoints.openai.api_server --model m",
            "python -m vllm.entrypoints.openai.api_server",
        ),
        ("docker exec -it box vllm serve m", "vllm serve"),
        ("apptainer exec --nv -B /data:/data vllm.sif vllm serve m", "vllm serve"),
        ("singularity exec --nv --env HF_HOME=/data vllm_0.34.sif vllm serve m", "vllm serve"),
        ("uvx --from vllm==0.34.0 vllm serve m", "vllm serve"),
        ("pixi run -e cuda vllm serve m", "vllm serve"),
    ],
)
def test_launchers(command: str, label: str) -> None:
    assert only(command + " --return-sampling-mask\n").label == label


@pytest.mark.parametrize(
    "text",
    [
        "# vllm serve m --return-sampling-mask\n",
        'echo "vllm serve m --return-sampling-mask"\n',
        "printf '%s\\n' vllm serve m --return-sampling-mask\n",
        "cat <<EOF > start.sh\nvllm serve m --return-sampling-mask\nEOF\n",
        "python -m sglang.launch_server --model m --return-sampling-mask\n",
        'SGL=(--return-sampling-mask)\npython -m sglang.launch_server "${SGL[@]}"\n',
        "vllm bench serve --return-sampling-mask\n",
        "command -v vllm serve\n",
        'run "$SERVER" serve m --return-sampling-mask\n',
        '"$BIN" serve m --return-sampling-mask\n',
        "docker run vllm/vllm-openai-rocm:base-nightly-rocm72 m --return-sampling-mask\n",
        "docker run --some-new-flag vllm/vllm-openai m --return-sampling-mask\n",
        "taskset -p 1234 vllm serve m\n",
        "singularity run vllm.sif vllm serve m --return-sampling-mask\n",  # the image's runscript, given these words
        "apptainer exec --some-new-flag vllm.sif vllm serve m --return-sampling-mask\n",
        "alias serve='vllm serve m --return-sampling-mask'\n",
    ],
)
def test_look_alikes_are_not_launches(text: str) -> None:
    assert launches(text) == []


def test_remote_commands_are_not_read() -> None:
    # The remote machine's vLLM release and environment are unknown; not read (yet).
    assert launches("ssh gpu01 'vllm serve m --return-sampling-mask'\n") == []


def test_dynamic_export_makes_the_environment_unknown() -> None:
    launch = only('MODE=raw_logprobs\nexport $(grep -v "^#" .env | xargs)\nvllm serve m --logprobs-mode "$MODE"\n')
    assert launch.value("logprobs_mode") is UNKNOWN and launch.env_open


def test_a_container_named_by_a_variable_still_runs_its_command() -> None:
    # realworld B5 (vLLM's run-cpu-test-arm.sh): `docker exec "$CONTAINER_NAME" ...`
    launch = only('docker exec -e X=1 "$CONTAINER_NAME" vllm serve m --return-sampling-mask\n')
    assert launch.settings["return_sampling_mask"].value is True
    assert only("docker exec \"$C\" bash -c 'vllm serve m --return-sampling-mask'\n").settings["model"].value == "m"
    assert launches('docker exec "$@" vllm serve m --return-sampling-mask\n') == []  # options may be in there too
    assert launches('docker run "$IMAGE" m --return-sampling-mask\n') == []  # an image nobody can tell


def test_sagemakers_supervisor_runs_its_arguments() -> None:
    # realworld B6 (vLLM's examples/deployment/sagemaker-entrypoint.sh)
    assert only("exec standard-supervisor vllm serve m --return-sampling-mask\n").settings["model"].value == "m"


def test_docker_image_tag_and_env() -> None:
    text = "docker run -e VLLM_USE_V2_MODEL_RUNNER=0 --env=OTHER=1 vllm/vllm-openai:v0.31.0 Qwen/Qwen3-8B --return-sampling-mask\n"
    launch = only(text)
    assert launch.version_hint is not None and launch.version_hint.releases == ("0.31.0",)
    assert launch.value("model") == "Qwen/Qwen3-8B"
    assert written(text, launch.env["VLLM_USE_V2_MODEL_RUNNER"]) == "-e VLLM_USE_V2_MODEL_RUNNER=0"


def test_pip_pin_gives_the_release() -> None:
    launch = only('pip install "vllm==0.30.1"\nvllm serve m --return-sampling-mask\n')
    assert launch.version_hint is not None and launch.version_hint.releases == ("0.30.1",)


# -- open-ended launches --------------------------------------------------------------------


@pytest.mark.parametrize("words", ["$EXTRA_ARGS", '"${EXTRA[@]}"', "$(cat flags)"])
def test_unknown_words_make_the_launch_open_ended(words: str) -> None:
    launch = only(f"vllm serve m --return-sampling-mask {words}\n")
    assert launch.open_ended
    assert launch.value("return_sampling_mask") is True


@pytest.mark.parametrize("words", ['"$@"', "$@", "$*", '"$1"'])
def test_the_scripts_own_arguments_are_forwarded_unless_open(words: str) -> None:
    text = f"vllm serve m --return-sampling-mask {words}\n"
    launch = only(text)
    assert not launch.open_ended and launch.forwarded == (words,)
    opened = shell.extract(SourceFile("run.sh", text), ExtractContext(forwarded_arguments="open"))
    assert len(opened) == 1 and opened[0].open_ended and opened[0].forwarded == ()


def test_quoted_unknown_value_is_not_a_spread() -> None:
    launch = only('vllm serve m --return-sampling-mask --logprobs-mode "$MODE"\n')
    assert not launch.open_ended and launch.value("logprobs_mode") is UNKNOWN


# -- control flow ---------------------------------------------------------------------------


def test_branches_give_one_launch_per_path() -> None:
    text = (
        'ARGS=(--return-sampling-mask)\nif [ "$DEBUG" = 1 ]; then\n  ARGS+=(--logprobs-mode raw_logprobs)\nfi\nvllm serve m "${ARGS[@]}"\n'
    )
    found = {launch.condition: launch for launch in launches(text)}
    assert set(found) == {'when `[ "$DEBUG" = 1 ]`', 'when not `[ "$DEBUG" = 1 ]`'}
    assert found['when `[ "$DEBUG" = 1 ]`'].value("logprobs_mode") == "raw_logprobs"
    assert found['when not `[ "$DEBUG" = 1 ]`'].get("logprobs_mode") is None


def test_branches_that_do_not_matter_are_merged() -> None:
    text = 'if [ -n "$X" ]; then Y=1; else Y=2; fi\nvllm serve m --return-sampling-mask --port "$Y"\n'
    assert len(launches(text)) == 1 and launches(text)[0].condition is None


def test_known_conditions_pick_their_branch() -> None:
    text = (
        "MODE=replay\n"
        'case "$MODE" in\n  replay) ARGS=(--return-sampling-mask) ;;\n  *) ARGS=() ;;\nesac\n'
        'if [ "$MODE" != replay ]; then ARGS+=(--logprobs-mode raw_logprobs); fi\n'
        'vllm serve m "${ARGS[@]}"\n'
    )
    launch = only(text)
    assert launch.condition is None and launch.get("logprobs_mode") is None


def test_and_or_lists() -> None:
    text = '[ -z "$SPEC" ] || EXTRA="--speculative-config {}"\nvllm serve m $EXTRA\n'
    conditions = sorted(str(launch.condition) for launch in launches(text))
    assert conditions == ['when `[ -z "$SPEC" ]` fails', 'when `[ -z "$SPEC" ]` succeeds']


def test_loop_variables_are_unknown() -> None:
    launch = only('MODE=processed_logprobs\nfor MODE in $(ls); do :; done\nvllm serve m --logprobs-mode "$MODE"\n')
    assert launch.value("logprobs_mode") is UNKNOWN


def test_a_loop_over_words_spelt_out_leaves_its_variable_at_the_last_word() -> None:
    launch = only('MODE=processed_logprobs\nfor MODE in a b; do :; done\nvllm serve m --logprobs-mode "$MODE"\n')
    assert launch.value("logprobs_mode") == "b"


def test_functions_run_at_their_call_sites() -> None:
    text = (
        "serve() {\n"
        '  local port="$1"\n'
        "  shift\n"
        '  vllm serve m --port "$port" --return-sampling-mask "$@"\n'
        "}\n"
        "serve 8000 --logprobs-mode raw_logprobs\n"
    )
    launch = only(text)
    assert launch.value("port") == "8000" and not launch.open_ended
    mode = launch.settings["logprobs_mode"]
    assert mode.span.start_line == 6 and written(text, mode) == "--logprobs-mode raw_logprobs"


def test_function_never_called_is_open_ended() -> None:
    launch = only('serve() { vllm serve m --return-sampling-mask "$@"; }\n')
    assert launch.open_ended


def test_launch_in_command_substitution_and_background() -> None:
    assert len(launches("PID=$(vllm serve m --return-sampling-mask & echo $!)\n")) == 1
    assert len(launches("vllm serve m --return-sampling-mask &\nwait\n")) == 1


def test_broken_continuation_ends_the_command() -> None:
    text = "vllm serve m \\\n  --return-sampling-mask \\ # the mask\n  --logprobs-mode processed_logprobs\n"
    launch = only(text)
    assert launch.get("logprobs_mode") is None and launch.span.end_line == 2
    (issue,) = launch.issues
    assert issue.kind == "broken-continuation" and issue.spelling == "\\ # the mask"


# -- scripts inside strings -----------------------------------------------------------------


def test_bash_c_double_quoted_maps_escapes() -> None:
    text = 'bash -lc "vllm serve m --return-sampling-mask --logprobs-mode \\"raw_logprobs\\""\n'
    launch = only(text)
    assert launch.value("logprobs_mode") == "raw_logprobs"
    assert written(text, launch.settings["logprobs_mode"]) == '--logprobs-mode \\"raw_logprobs\\"'


def test_sh_c_single_quoted_with_arguments() -> None:
    text = 'sh -c \'vllm serve "$1" --return-sampling-mask --logprobs-mode "$2"\' sh Qwen/Qwen3-8B raw_logprobs\n'
    launch = only(text)
    assert launch.value("model") == "Qwen/Qwen3-8B" and launch.value("logprobs_mode") == "raw_logprobs"
    assert written(text, launch.settings["logprobs_mode"]).endswith("raw_logprobs")


def test_bash_c_sees_only_exported_variables() -> None:
    text = 'MODE=raw_logprobs\nexport MODEL=m\nbash -c \'vllm serve "$MODEL" --logprobs-mode "$MODE"\'\n'
    launch = only(text)
    assert launch.value("model") == "m" and launch.value("logprobs_mode") is UNKNOWN


def test_unknown_parts_of_an_outer_string_stay_unknown() -> None:
    launch = only('bash -c "vllm serve $MODEL --return-sampling-mask"\n')
    assert launch.open_ended and launch.value("return_sampling_mask") is True


def test_heredoc_fed_to_bash() -> None:
    text = 'M=m\nbash <<EOF\nvllm serve $M --return-sampling-mask \\\n  --logprobs-mode "\\$MODE"\nEOF\n'
    launch = only(text)
    assert launch.value("model") == "m" and launch.value("logprobs_mode") is UNKNOWN
    assert launch.settings["return_sampling_mask"].span.start_line == 3


def test_eval_runs_in_this_shell() -> None:
    launch = only('M=m\neval "vllm serve $M --return-sampling-mask"\n')
    assert launch.value("model") == "m"


def test_extract_script_maps_offsets_and_takes_env() -> None:
    host = "RUN vllm serve m --return-sampling-mask --logprobs-mode raw_logprobs\n"
    source = SourceFile("Dockerfile", host)
    script = host[4:-1]
    env = {"VLLM_USE_V2_MODEL_RUNNER": Setting("VLLM_USE_V2_MODEL_RUNNER", "0", source.index.span(0, 3), "ENV")}
    found = words_shell.extract_script(script, source, ExtractContext(), to_offset=lambda i: i + 4, env=env, kind=LaunchKind.DOCKERFILE)
    assert len(found) == 1
    launch = found[0]
    assert launch.kind is LaunchKind.DOCKERFILE
    assert written(host, launch.settings["logprobs_mode"]) == "--logprobs-mode raw_logprobs"
    assert launch.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"


def test_extract_script_never_raises() -> None:
    source = SourceFile("Dockerfile", "RUN if then (\n")
    assert words_shell.extract_script("if then (", source, ExtractContext(), to_offset=lambda i: i + 4) == []


# -- files that do not parse ----------------------------------------------------------------


def test_parses() -> None:
    assert shell.parses("vllm serve m\n")
    assert not shell.parses("if then fi (\n")


def test_syntax_error_bash_rejects_is_a_parse_error() -> None:
    with pytest.raises(ParseError) as raised:
        launches("vllm serve m\nif true; then\n  echo\n")
    assert "bash cannot parse" in raised.value.message


def test_valid_bash_tree_sitter_misreads_is_not_a_parse_error() -> None:
    # tree-sitter-bash cannot read `\<` in `[ ]`; bash can. The misread part yields nothing.
    text = '[ "$a" \\< "$b" ] && echo\nvllm serve m --return-sampling-mask\n'
    assert grammar.parse(text).root.has_error
    assert grammar.rejection(text) is None
    assert launches(text) == []


def test_config_file_next_to_the_script() -> None:
    files = {"replay.yaml": "return-sampling-mask: true\nlogprobs-mode: raw_logprobs\n"}
    launch = only("vllm serve m --config replay.yaml\n", files=files)
    assert launch.value("logprobs_mode") == "raw_logprobs"
    assert launch.settings["logprobs_mode"].span.path == "replay.yaml"


def test_unreadable_config_file_is_open_ended() -> None:
    assert only("vllm serve m --config missing.yaml --return-sampling-mask\n").open_ended


# -- findings and fixes through the engine --------------------------------------------------


def test_findings_point_at_the_word_to_change(check) -> None:
    text = (
        "vllm serve m --enable-scale-out \\\n  --tensor-parallel-size 2 \\\n  --return-sampling-mask \\\n  --logprobs-mode raw_logprobs\n"
    )
    (finding,) = findings(check, text)
    assert (finding.code, finding.span.start_line, finding.span.start_col) == ("RPL003", 4, 19)
    text = "vllm serve m --enable-scale-out \\\n  --tensor-parallel-size 2 \\\n  --return-sampling-mask\n"
    (finding,) = findings(check, text)
    assert (finding.code, finding.span.start_line, finding.span.start_col) == ("RPL003", 3, 3)


def test_fix_inserts_on_its_own_continued_line(check) -> None:
    text = "vllm serve m \\\n    --return-sampling-mask \\\n    --max-model-len 8192\n"
    assert fixed(check, text) == (
        "vllm serve m \\\n    --return-sampling-mask \\\n    --logprobs-mode processed_logprobs \\\n    --max-model-len 8192\n"
    )


def test_fix_inserts_inline_at_the_end(check) -> None:
    assert fixed(check, "exec vllm serve m --return-sampling-mask\n") == (
        "exec vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n"
    )


def test_fix_edits_an_inline_array(check) -> None:
    text = 'ARGS=(--tp 2 --return-sampling-mask)\nvllm serve m "${ARGS[@]}"\n'
    assert fixed(check, text) == 'ARGS=(--tp 2 --return-sampling-mask --logprobs-mode processed_logprobs)\nvllm serve m "${ARGS[@]}"\n'


def test_fix_edits_a_multi_line_array_without_continuation(check) -> None:
    text = 'ARGS=(\n  --return-sampling-mask\n  --tp 2\n)\nvllm serve m "${ARGS[@]}"\n'
    assert (
        fixed(check, text)
        == 'ARGS=(\n  --return-sampling-mask\n  --logprobs-mode processed_logprobs\n  --tp 2\n)\nvllm serve m "${ARGS[@]}"\n'
    )


def test_fix_edits_a_multi_line_array_validly(check) -> None:
    text = 'ARGS=(\n  --return-sampling-mask\n  --tp 2\n)\nvllm serve m "${ARGS[@]}"\n'
    result = fixed(check, text)
    assert shell.parses(result)
    assert only(result).value("logprobs_mode") == "processed_logprobs"


def test_fix_edits_a_string_variable(check) -> None:
    text = 'FLAGS="--return-sampling-mask --tp 2"\nvllm serve m $FLAGS\n'
    assert fixed(check, text) == 'FLAGS="--return-sampling-mask --logprobs-mode processed_logprobs --tp 2"\nvllm serve m $FLAGS\n'


def test_fix_replaces_a_value_in_bash_c(check) -> None:
    text = "sh -c 'vllm serve m --return-sampling-mask --logprobs-mode \"raw_logprobs\"'\n"
    assert fixed(check, text) == "sh -c 'vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs'\n"


def test_fix_removes_runner_variable(check) -> None:
    done = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n"
    assert fixed(check, "export VLLM_USE_V2_MODEL_RUNNER=0\n" + done) == done
    assert fixed(check, "VLLM_USE_V2_MODEL_RUNNER=0 " + done) == done
    text = "docker run --gpus all \\\n  -e VLLM_USE_V2_MODEL_RUNNER=0 \\\n  vllm/vllm-openai:v0.31.0 m --return-sampling-mask --logprobs-mode processed_logprobs\n"
    assert (
        fixed(check, text)
        == "docker run --gpus all \\\n  vllm/vllm-openai:v0.31.0 m --return-sampling-mask --logprobs-mode processed_logprobs\n"
    )


def test_fix_respells_runner_variable(check) -> None:
    text = "export VLLM_USE_V2_MODEL_RUNNER=true\nvllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n"
    assert fixed(check, text, ("RPL201",), release="0.33.0").startswith("export VLLM_USE_V2_MODEL_RUNNER=1\n")
    assert fixed(check, text, ("RPL206",), release="0.34.0").startswith("vllm serve m")


def test_no_fix_when_words_share_text(check) -> None:
    found = findings(check, 'CMD="vllm serve m --return-sampling-mask"\nbash -c "$CMD"\n')
    assert [f.code for f in found] == ["RPL003", "RPL301"] and not any(f.edits for f in found)


def test_suppression_comment_above_the_word(check) -> None:
    text = "vllm serve m --enable-scale-out \\\n  --return-sampling-mask  # replaylint: ignore[RPL003]\n"
    assert findings(check, text) == []


# -- robustness -----------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("vllm serve-\"'$(){}[]\\\n|&;<># =abcx@*`")), max_size=80))
def test_arbitrary_text_never_crashes(text: str) -> None:
    try:
        launches("vllm serve m " + text)
    except ParseError:
        pass


def test_deep_nesting_does_not_crash() -> None:
    launches("vllm serve " + "$(" * 2000 + "x" + ")" * 2000 + "\n")
    launches("if true; then\n" * 400 + "vllm serve m\n" + "fi\n" * 400)


# -- values built from other values ---------------------------------------------------------------


def test_blanks_between_two_expansions_inside_double_quotes_are_kept() -> None:
    # tree-sitter-bash puts the blank before `$B` in the expansion's node: the flags ran together
    launch = only('A=--return-sampling-mask\nB=--logprobs-mode\nC="$A $B processed_logprobs"\nvllm serve m $C\n')
    assert launch.get("return_sampling_mask").value is True
    assert launch.get("logprobs_mode").value == "processed_logprobs"


def test_a_value_doubled_past_the_piece_limit_is_kept_when_its_pieces_join() -> None:
    # 8,192 copies of one space: bash drops them all from the unquoted `$S`
    doublings = 'S=" "\n' + 'S="$S$S"\n' * 13
    launch = only(doublings + "vllm serve m $S --return-sampling-mask\n")
    assert not launch.open_ended and launch.get("return_sampling_mask").value is True


def test_a_value_past_the_piece_limit_that_does_not_join_is_reported_where_it_is_assigned() -> None:
    text = 'ARGS="--enforce-eager"\n' + 'ARGS="$ARGS $ARGS"\n' * 13 + "vllm serve m $ARGS --return-sampling-mask\n"
    context = ExtractContext()
    (launch,) = shell.extract(SourceFile("run.sh", text), context)
    assert launch.open_ended
    assert [(unread.message, text[: unread.offset].count("\n") + 1) for unread in context.unread] == [
        ("a value of more than 4,096 pieces is not followed", 13)  # the twelfth doubling: 8,191 pieces
    ]


def test_a_value_past_the_piece_limit_is_reported_only_when_a_launch_reads_it() -> None:
    doubled = 'ARGS="--enforce-eager"\n' + 'ARGS="$ARGS $ARGS"\n' * 13 + 'COPY="$ARGS"\n'
    for launch, reported in (("vllm serve m --return-sampling-mask\n", False), ("vllm serve m $COPY --return-sampling-mask\n", True)):
        context = ExtractContext()
        shell.extract(SourceFile("run.sh", doubled + launch), context)
        assert bool(context.unread) is reported, launch


def test_branches_that_assign_alike_merge_and_ones_that_differ_stay_apart() -> None:
    text = (
        "".join(f"V{n}=raw_logprobs\n" for n in range(300))  # many variables: the map's buckets are shared
        + "if [ -f base.yaml ]; then MODE=a; else MODE=a; fi\n"
        + "if [ -f extra.yaml ]; then V7=processed_logprobs; fi\n"
        + "vllm serve m --return-sampling-mask --logprobs-mode $V7\n"
    )
    variants = sorted((launch.get("logprobs_mode").value, launch.condition) for launch in launches(text))
    assert variants == [("processed_logprobs", "when `[ -f extra.yaml ]`"), ("raw_logprobs", "when not `[ -f extra.yaml ]`")]
