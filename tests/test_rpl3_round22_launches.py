"""Round 22's RPL3xx launch-side misses, as forms users write:

- a command line written as joined literals (`("vllm serve {model} ... " "--return-sampling-mask ...")`, f-strings or
  plain strings, returned by a helper, bound to a name or spelt in the call, split by `shlex.split` or run by a shell):
  each word is placed on the line of the part it is in, as in every format that builds a command line from parts;
- `shlex.quote(text)`: one shell word, so `shlex.quote(json.dumps(spec))` keeps where each key of the spec is written
  (a JSON file the launcher inlines, a dict of the module); a value not known stays one word not known;
- a shell `for` loop over words the script spells out (`for feature in $FEATURES; do FLAGS="$FLAGS --$feature"; done`):
  the body once per word, an option's name put together this way placed where its name is written; words not known
  (`$(cat ...)`, `"$@"`) or a body that may leave a turn early keep what the loop assigns unknown."""

from __future__ import annotations

from pathlib import Path

from rpl3_heldout_cases import found


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


# 1. joined literals: a word on the line of its part

HELPER_FSTRINGS = """import shlex
import subprocess

MODEL = "Qwen/Qwen3-8B"


def build_command(model: str, port: int) -> str:
    return (
        f"vllm serve {model} --port {port} --max-model-len 8192 "
        f"--return-sampling-mask --logprobs-mode processed_logprobs"
        TAIL
    )


def start_server() -> subprocess.Popen:
    return subprocess.Popen(shlex.split(build_command(MODEL, 8000)))
"""


def test_a_helpers_joined_fstrings_place_the_mask_word_on_its_own_line(tmp_path: Path) -> None:
    write(tmp_path, {"serve.py": HELPER_FSTRINGS.replace("        TAIL\n", "")})
    assert found(tmp_path) == [("RPL301", "serve.py", 10)]


def test_a_helpers_joined_fstrings_with_scale_out_in_a_later_part_are_clean(tmp_path: Path) -> None:
    write(tmp_path, {"serve.py": HELPER_FSTRINGS.replace("TAIL", 'f" --enable-scale-out"')})
    assert found(tmp_path) == []


def test_a_helpers_joined_fstrings_with_extra_words_from_the_environment_stay_open(tmp_path: Path) -> None:
    text = HELPER_FSTRINGS.replace("TAIL", "f\" {os.environ.get('EXTRA_ARGS', '')}\"").replace("import shlex", "import os\nimport shlex")
    write(tmp_path, {"serve.py": text})
    assert found(tmp_path) == []


def test_a_helpers_joined_plain_strings_split_by_shlex_are_read_and_placed(tmp_path: Path) -> None:
    text = """import shlex
import subprocess


def build_command() -> str:
    return (
        "vllm serve Qwen/Qwen3-8B --port 8000 "  # the policy server
        "--return-sampling-mask --logprobs-mode processed_logprobs"
    )


subprocess.Popen(shlex.split(build_command()))
"""
    write(tmp_path, {"serve.py": text})
    assert found(tmp_path) == [("RPL301", "serve.py", 8)]


def test_joined_fstrings_a_shell_runs_place_the_word_after_an_escape_in_an_earlier_part(tmp_path: Path) -> None:
    text = """import subprocess

MODEL = "Qwen/Qwen3-8B"
cmd = (
    f"vllm serve {MODEL}\\t--port 8000 "
    f"--max-model-len 8192 {'--return-sampling-mask'} --logprobs-mode processed_logprobs"
)
subprocess.Popen(cmd, shell=True)
"""
    write(tmp_path, {"serve.py": text})
    assert found(tmp_path) == [("RPL301", "serve.py", 6)]


def test_joined_fstrings_spelt_in_the_call_place_the_word_on_its_line(tmp_path: Path) -> None:
    text = """import subprocess

MODEL = "Qwen/Qwen3-8B"
subprocess.Popen(
    f"vllm serve {MODEL} --port 8000 --max-model-len 8192 "
    f'--return-sampling-mask --logprobs-mode processed_logprobs',
    shell=True,
)
"""
    write(tmp_path, {"serve.py": text})
    assert found(tmp_path) == [("RPL301", "serve.py", 6)]


# 2. `shlex.quote(json.dumps(spec))`

SPEC_LAUNCHER = """import json
import shlex
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def speculative_arg(path: Path) -> str:
    return shlex.quote(json.dumps(json.loads(path.read_text())))


cmd = (
    f"vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out "
    f"--speculative-config {speculative_arg(SPEC)}"
)
subprocess.Popen(shlex.split(cmd))
"""

SPEC_FILE = """{
  "method": "ngram",
  "num_speculative_tokens": 4,
  "prompt_lookup_max": 4,
  "rejection_sample_method": "METHOD",
  "synthetic_acceptance_length": 2.5
}
"""


def test_a_spec_file_inlined_by_shlex_quote_is_reported_at_its_key(tmp_path: Path) -> None:
    files = {"serve.py": SPEC_LAUNCHER.replace("SPEC", "ROOT / 'spec.json'"), "spec.json": SPEC_FILE.replace("METHOD", "synthetic")}
    write(tmp_path, files)
    assert found(tmp_path) == [("RPL306", "spec.json", 5)]


def test_a_spec_file_inlined_by_shlex_quote_asking_standard_is_clean(tmp_path: Path) -> None:
    files = {"serve.py": SPEC_LAUNCHER.replace("SPEC", "ROOT / 'spec.json'"), "spec.json": SPEC_FILE.replace("METHOD", "standard")}
    write(tmp_path, files)
    assert found(tmp_path) == []


def test_a_spec_file_named_on_the_command_line_stays_open(tmp_path: Path) -> None:
    files = {
        "serve.py": SPEC_LAUNCHER.replace("SPEC", "Path(sys.argv[1])").replace("import json", "import json\nimport sys"),
        "spec.json": SPEC_FILE.replace("METHOD", "synthetic"),
    }
    write(tmp_path, files)
    assert found(tmp_path) == []


def test_a_dict_dumped_and_quoted_is_reported_at_its_key(tmp_path: Path) -> None:
    text = """import json
import shlex
import subprocess

SPEC = {
    "method": "ngram",
    "num_speculative_tokens": 4,
    "prompt_lookup_max": 4,
    "rejection_sample_method": "synthetic",
}
flags = "--return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
subprocess.run(f"vllm serve Qwen/Qwen3-8B {flags} --speculative-config {shlex.quote(json.dumps(SPEC))}", shell=True)
"""
    write(tmp_path, {"serve.py": text})
    assert found(tmp_path) == [("RPL306", "serve.py", 9)]


def test_a_quoted_value_not_known_is_one_word_that_keeps_the_launch_open_for_its_option(tmp_path: Path) -> None:
    text = """import os
import shlex
import subprocess

spec = os.environ["SPEC_JSON"]
subprocess.run(
    f"vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs "
    f"--speculative-config {shlex.quote(spec)}",
    shell=True,
)
"""
    write(tmp_path, {"serve.py": text})
    assert found(tmp_path) == [("RPL301", "serve.py", 7)]  # one word: it cannot be `--enable-scale-out`


# 3. shell `for` loops over words spelt out

LOOP_SCRIPT = """#!/usr/bin/env bash
set -euo pipefail

FEATURES="return-sampling-mask enable-scale-out WORD"

FLAGS=""
for feature in LIST; do
  FLAGS="$FLAGS --$feature"
done

exec vllm serve "$MODEL" --port 8000 --logprobs-mode processed_logprobs $FLAGS
"""


def test_flags_built_in_a_loop_over_a_word_list_report_trace_replay_at_the_list(tmp_path: Path) -> None:
    write(tmp_path, {"serve.sh": LOOP_SCRIPT.replace("WORD", "enable-trace-replay").replace("LIST", "$FEATURES")})
    assert found(tmp_path) == [("RPL305", "serve.sh", 4)]


def test_flags_built_in_a_loop_without_trace_replay_are_clean(tmp_path: Path) -> None:
    write(tmp_path, {"serve.sh": LOOP_SCRIPT.replace("WORD", "enable-log-requests").replace("LIST", "$FEATURES")})
    assert found(tmp_path) == []


def test_flags_built_in_a_loop_over_words_spelt_in_the_loop_are_placed_there(tmp_path: Path) -> None:
    text = """#!/usr/bin/env bash
FLAGS=""
for feature in return-sampling-mask \\
    enable-trace-replay; do
  FLAGS+=" --${feature}"
done
vllm serve Qwen/Qwen3-8B --logprobs-mode processed_logprobs $FLAGS
"""
    write(tmp_path, {"serve.sh": text})
    assert found(tmp_path) == [("RPL301", "serve.sh", 3), ("RPL305", "serve.sh", 4)]


def test_flags_built_in_a_loop_over_an_array_are_placed_at_its_element(tmp_path: Path) -> None:
    text = """#!/usr/bin/env bash
FEATURES=(
  return-sampling-mask
  enable-scale-out
  enable-trace-replay
)
ARGS=()
for feature in "${FEATURES[@]}"; do
  ARGS+=("--${feature}")
done
vllm serve Qwen/Qwen3-8B --logprobs-mode processed_logprobs "${ARGS[@]}"
"""
    write(tmp_path, {"serve.sh": text})
    assert [code for code, _, _ in found(tmp_path)] == ["RPL305"]


def test_a_loop_over_words_read_at_run_time_stays_open(tmp_path: Path) -> None:
    write(tmp_path, {"serve.sh": LOOP_SCRIPT.replace("WORD", "enable-trace-replay").replace("LIST", "$(cat features.txt)")})
    assert found(tmp_path) == []


def test_a_loop_over_the_scripts_arguments_stays_open(tmp_path: Path) -> None:
    write(tmp_path, {"serve.sh": LOOP_SCRIPT.replace("WORD", "enable-trace-replay").replace("LIST", '"$@"')})
    assert found(tmp_path) == []


def test_a_loop_whose_body_may_break_is_not_read_turn_by_turn(tmp_path: Path) -> None:
    text = LOOP_SCRIPT.replace("WORD", "enable-trace-replay").replace("LIST", "$FEATURES")
    text = text.replace('  FLAGS="$FLAGS --$feature"\n', '  [ "$feature" = "$STOP_AT" ] && break\n  FLAGS="$FLAGS --$feature"\n')
    write(tmp_path, {"serve.sh": text})
    assert found(tmp_path) == []


def test_servers_started_in_a_loop_over_ports_are_judged_once_each_word_known(tmp_path: Path) -> None:
    text = "#!/usr/bin/env bash\nfor port in 8000 8001; do\n  vllm serve m --port $port --return-sampling-mask --logprobs-mode processed_logprobs &\ndone\nwait\n"
    write(tmp_path, {"serve.sh": text})
    assert found(tmp_path) == [("RPL301", "serve.sh", 3)]


def test_a_quoted_word_not_known_may_still_be_the_scale_out_switch(tmp_path: Path) -> None:
    text = """import os
import shlex
import subprocess

extra = os.environ["EXTRA"]
subprocess.run(f"vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs {shlex.quote(extra)}", shell=True)
"""
    write(tmp_path, {"serve.py": text})
    assert found(tmp_path) == []  # `shlex.quote("--enable-scale-out")` is that word as it is


def test_a_loop_over_an_empty_word_list_never_runs_its_body(tmp_path: Path) -> None:
    text = LOOP_SCRIPT.replace("WORD", "enable-trace-replay").replace("LIST", "$NOTHING").replace('FLAGS=""', 'FLAGS=""\nNOTHING=""')
    write(tmp_path, {"serve.sh": text.replace("$FLAGS\n", "--return-sampling-mask $FLAGS\n")})
    assert found(tmp_path) == [("RPL301", "serve.sh", 12)]


def test_loops_inside_loops_are_read_turn_by_turn_only_within_a_bound(tmp_path: Path) -> None:
    nested = """#!/usr/bin/env bash
for seed in SEEDS; do
  FLAGS=""
  for feature in return-sampling-mask enable-scale-out enable-trace-replay; do
    FLAGS="$FLAGS --$feature"
  done
  vllm serve Qwen/Qwen3-8B --seed "$seed" --logprobs-mode processed_logprobs $FLAGS &
done
wait
"""
    write(tmp_path / "few", {"serve.sh": nested.replace("SEEDS", "1 2 3")})
    write(tmp_path / "many", {"serve.sh": nested.replace("SEEDS", " ".join(str(seed) for seed in range(11)))})
    assert found(tmp_path / "few") == [("RPL305", "serve.sh", 4)]
    assert found(tmp_path / "many") == []  # 33 turns: the inner loop's flags are not known
