"""Run a shell script with real bash in a sandbox and record every command it starts.

The script runs as `nobody`, without network (`unshare -n`), under `timeout`, with HOME and
the working folder in a temporary directory and a PATH that holds only *shims* and a short list
of harmless real tools. A shim writes its name, argv, working folder and environment to a
record file and exits 0 (`vllm`, `python`, `docker`, `curl`, `sleep`, ...); a few wrappers
(`sudo`, `uv run`, `numactl`, `srun`) drop their own options and run the rest, as they would.
Any other command not found is recorded by bash's `command_not_found_handle` (from BASH_ENV)
and succeeds, so a script goes on to its launches instead of stopping at a missing tool.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

# Real tools a launch script may use to compute its arguments; nothing that reaches a network.
REAL_TOOLS = (
    "bash sh cat sed awk gawk grep egrep fgrep cut tr head tail wc sort uniq seq date dirname basename "
    "realpath readlink mkdir rm cp mv touch ls env nohup timeout tee expr test true false id whoami "
    "uname nproc find xargs jq mktemp chmod ln stat du df printf echo getopt bc paste tac rev yes "
    "numfmt comm join split md5sum sha256sum base64 od hexdump cmp diff file which hostname"
).split()
# Commands that are recorded and succeed without doing anything.
RECORDERS = (
    "vllm python python3 python3.8 python3.9 python3.10 python3.11 python3.12 python3.13 docker podman "
    "torchrun ray trl curl wget sleep nvidia-smi rocm-smi npu-smi git pip pip3 huggingface-cli hf "
    "ssh scp kubectl helm lsof nc netstat ss pkill killall ps free lscpu accelerate deepspeed "
    "lm_eval lm-eval guidellm vllm-bench kill_process"
).split()
WRAPPERS = ("sudo", "uv", "uvx", "numactl", "taskset", "srun", "stdbuf", "nice", "ionice", "chrt")
NOBODY = 65534
SECONDS = 6  # launches come first; a script still waiting for its server after this is ended

SHIM = r"""#!/bin/bash
name="${0##*/}"
record=$(/usr/bin/mktemp "$RW_RECORD_DIR/rec.XXXXXXXX")
{ printf '%s\0' "$name" "$PWD" "$#"; printf '%s\0' "$@"; /usr/bin/env -0; } > "$record"
exit 0
"""

# Wrappers record themselves too, then run what they wrap without their own options.
WRAPPER = r"""#!/bin/bash
name="${0##*/}"
record=$(/usr/bin/mktemp "$RW_RECORD_DIR/rec.XXXXXXXX")
{ printf '%s\0' "$name" "$PWD" "$#"; printf '%s\0' "$@"; /usr/bin/env -0; } > "$record"
case "$name" in
  uv|uvx)
    if [ "$name" = uv ]; then [ "$1" = run ] || exit 0; shift; fi
    while [ $# -gt 0 ]; do
      case "$1" in
        --) shift; break ;;
        --with|--python|-p|--project|--directory|--extra|--group|--index|--env-file|--package|--from|-w|--with-requirements|--index-url|--extra-index-url) shift 2 ;;
        -*) shift ;;
        *) break ;;
      esac
    done ;;
  sudo)
    while [ $# -gt 0 ]; do
      case "$1" in
        -u|-g|-C|-D|-h|-p|-r|-t|-U|-T) shift 2 ;;
        -*) shift ;;
        *) break ;;
      esac
    done ;;
  taskset)
    while [ $# -gt 0 ]; do case "$1" in -*) shift ;; *) break ;; esac; done
    shift ;;
  *)
    while [ $# -gt 0 ]; do
      case "$1" in
        --*=*|-[a-zA-Z]*[=0-9,]*) shift ;;
        --*|-?) if [ "$1" = "--" ]; then shift; break; fi; shift
                case "$1" in -*|'') ;; *) [ -n "$(command -v "$1")" ] || shift ;; esac ;;
        *) break ;;
      esac
    done ;;
esac
[ $# -gt 0 ] && exec "$@"
exit 0
"""

BASH_ENV = r"""command_not_found_handle() {
  local record
  record=$(/usr/bin/mktemp "$RW_RECORD_DIR/rec.XXXXXXXX")
  { printf '%s\0' "$1" "$PWD"; printf '%s\0' "$(( $# - 1 ))"; shift; printf '%s\0' "$@"; /usr/bin/env -0; } > "$record"
  return 0
}
"""


@dataclass
class Invocation:
    """One command the script started (a shim or an unknown command)."""

    name: str
    argv: list[str]
    cwd: str
    env: dict[str, str]


@dataclass
class Run:
    invocations: list[Invocation] = field(default_factory=list)
    exit_code: int | None = None
    timed_out: bool = False
    stderr: str = ""


class Sandbox:
    """A folder with the shims, reused for every script of a run."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.bin = root / "bin"
        self.bin.mkdir(parents=True)
        (self.bin / "_shim").write_text(SHIM)
        (self.bin / "_wrapper").write_text(WRAPPER)
        for path in (self.bin / "_shim", self.bin / "_wrapper"):
            path.chmod(0o755)
        for name in RECORDERS:
            (self.bin / name).symlink_to("_shim")
        for name in WRAPPERS:
            (self.bin / name).symlink_to("_wrapper")
        for name in REAL_TOOLS:
            real = shutil.which(name, path="/usr/bin:/bin")
            if real and not (self.bin / name).exists():
                (self.bin / name).symlink_to(real)
        self.bash_env = root / "bash_env"
        self.bash_env.write_text(BASH_ENV)
        self.runs = 0
        self.unshare = _works(["unshare", "-n", "true"])

    def run(self, files: dict[str, bytes], script: str, env: dict[str, str] | None = None, argv: list[str] | None = None) -> Run:
        """Write `files` (relative path -> content) into a fresh folder and run `script`, one of
        them (or, when `script` is not among them, the text given as `bash -c`)."""
        self.runs += 1
        work = self.root / f"run{self.runs}"
        records = work / "records"
        home = work / "home"
        tree = work / "tree"
        for folder in (records, home, tree):
            folder.mkdir(parents=True)
        for rel, data in files.items():
            target = tree / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        if script in files:
            command = ["bash", str(tree / script), *(argv or [])]
            cwd = (tree / script).parent
        else:
            command = ["bash", "-c", script]
            cwd = tree
        _chown(work)
        environment = {
            **(env or {}),
            "PATH": str(self.bin),
            "HOME": str(home),
            "TMPDIR": str(work),
            "BASH_ENV": str(self.bash_env),
            "RW_RECORD_DIR": str(records),
            "LANG": "C.UTF-8",
            "USER": "nobody",
            "http_proxy": "http://127.0.0.1:9",
            "https_proxy": "http://127.0.0.1:9",
        }
        prefix = [_tool("unshare"), "-n"] if self.unshare else []
        prefix += [_tool("setpriv"), f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"] if os.geteuid() == 0 else []
        full = [*prefix, _tool("timeout"), "-k", "2", str(SECONDS), _tool("bash"), *command[1:]]
        result = Run()
        try:
            done = subprocess.run(full, cwd=cwd, env=environment, capture_output=True, timeout=SECONDS + 10, stdin=subprocess.DEVNULL)
            result.exit_code = done.returncode
            result.timed_out = done.returncode == 124
            result.stderr = done.stderr.decode(errors="replace")[-2000:]
        except subprocess.TimeoutExpired:
            result.timed_out = True
        result.invocations = [_read(path) for path in sorted(records.iterdir())]
        result.invocations = [i for i in result.invocations if i is not None]
        return result  # the folder stays until the sandbox goes: a recorded --config may point into it

    def run_argv(self, argv: list[str], env: dict[str, str], files: dict[str, bytes] | None = None) -> Run:
        """Start a container-style argv (no shell unless it names one); an absolute program path
        (`/bin/bash`, `/opt/venv/bin/vllm`) runs the shim or tool of the same name."""
        program = os.path.basename(argv[0]) if (self.bin / os.path.basename(argv[0])).exists() else argv[0]
        words = " ".join(shlex.quote(word) for word in [program, *argv[1:]])
        return self.run(files or {}, f"exec {words}", env)


def _read(path: Path) -> Invocation | None:
    parts = path.read_bytes().split(b"\0")
    try:
        name, cwd, count = parts[0].decode(), parts[1].decode(errors="replace"), int(parts[2])
    except (IndexError, ValueError):
        return None
    argv = [part.decode(errors="surrogateescape") for part in parts[3 : 3 + count]]
    env = {}
    for item in parts[3 + count :]:
        key, sep, value = item.decode(errors="surrogateescape").partition("=")
        if sep:
            env[key] = value
    return Invocation(name, argv, cwd, env)


def _chown(folder: Path) -> None:
    if os.geteuid() != 0:
        return
    for dirpath, dirnames, filenames in os.walk(folder):
        os.chown(dirpath, NOBODY, NOBODY)
        for name in filenames:
            os.chown(os.path.join(dirpath, name), NOBODY, NOBODY)


def _tool(name: str) -> str:
    return shutil.which(name, path="/usr/bin:/bin:/usr/sbin:/sbin") or name


def _works(command: list[str]) -> bool:
    try:
        return subprocess.run(command, capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def new_sandbox() -> tuple[Sandbox, tempfile.TemporaryDirectory]:
    holder = tempfile.TemporaryDirectory(prefix="replaylint-realworld-")
    os.chmod(holder.name, 0o755)
    return Sandbox(Path(holder.name)), holder
