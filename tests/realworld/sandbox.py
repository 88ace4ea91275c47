"""Run a shell script with real bash in a sandbox and record every command it starts.

The script runs as `nobody`, under `timeout`, with HOME and the working folder in a temporary
directory and a PATH that holds only *shims* and a short list of harmless real tools. Run as
root, it also gets its own namespaces (`unshare`): no network, its own processes (all ended
with the script) and a private root, a tmpfs that anyone may write (so `mkdir -p /workspace/x`
and `> /data/log` work and vanish) with the system's /usr and /etc read-only; the shims also
stand in for /usr/bin/curl, /usr/bin/python3 and the like there. A shim writes its name, argv,
working folder and environment to a record file and exits 0 (`vllm`, `python`, `docker`,
`sleep`, ...); a health-check `curl -w '%{http_code}'` prints 200, `nvidia-smi` answers for
eight H100s (the judge's machine), `pgrep`, `pidof` and `lsof` find nothing, the script's
own `python3 -c`/`python3 -` code runs (stdlib only: else the shim says nothing), and
`docker exec CONTAINER COMMAND` runs COMMAND in the sandbox. `kill` (a
function from BASH_ENV) records and succeeds, so `kill -0 $PID` sees the recorded server alive
and `kill $!` does not stop a script. A few wrappers (`sudo`, `uv run`, `numactl`, `srun`) drop
their own options and run the rest, as they would. Any other command not found is recorded by
bash's `command_not_found_handle` (from BASH_ENV) and succeeds, so a script goes on to its
launches instead of stopping at a missing tool. `Inputs` are what a run may be given besides
the script: arguments, environment variables, folders and (empty) files that must exist.
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
    "ssh scp kubectl helm lsof nc netstat ss pkill pgrep pidof killall ps free lscpu accelerate deepspeed "
    "lm_eval lm-eval guidellm vllm-bench kill_process apt apt-get yum dnf conda"
).split()
# `standard-supervisor` (SageMaker's) runs its arguments under supervision.
WRAPPERS = ("sudo", "uv", "uvx", "numactl", "taskset", "srun", "stdbuf", "nice", "ionice", "chrt", "setsid", "standard-supervisor")
NOBODY = 65534
SECONDS = 6  # launches come first; a script still waiting for its server after this is ended
GPUS = 8  # what nvidia-smi reports, as many as the judge's machine
MAX_SLEEPS = 60
REAL_PYTHON = os.path.realpath(shutil.which("python3", path="/usr/bin:/bin") or "/usr/bin/python3")
HIDDEN_BIN = "/.real-bin"  # the real /usr/bin in the private root, for the real Python

SHIM = r"""#!/bin/bash
name="${0##*/}"
record=$(/usr/bin/mktemp "$RW_RECORD_DIR/rec.XXXXXXXX")
{ printf '%s\0' "$name" "$PWD" "$#"; printf '%s\0' "$@"; /usr/bin/env -0; } > "$record"
if [ -n "$RW_END" ]; then
  case "$*" in *--return-sampling-mask*) rw_end_run 1 ;; esac
  [ "$name" = sleep ] && : > "$RW_SLEEPS/$$" && sleeps=("$RW_SLEEPS"/*) && [ ${#sleeps[@]} -ge $RW_MAX_SLEEPS ] && rw_end_run 0.01
fi
case "$name" in
  python|python3|python3.*)
    # The script's own one-line or here-document Python (free ports, a JSON value) runs;
    # when it cannot (it imports torch, vLLM, ...), the shim says nothing and succeeds.
    case "$1" in
      -c|-|-V|--version) out=$(/usr/bin/timeout 3 "$RW_PYTHON" "$@" 2> /dev/null) && [ -n "$out" ] && printf '%s\n' "$out" ;;
    esac ;;
  docker|podman)
    # `docker exec CONTAINER COMMAND`: the sandbox stands in for the container (whose own
    # environment, from `docker run -e`, is not carried over); `-e NAME=VALUE` is.
    if [ "$1" = exec ]; then
      shift
      while [ $# -gt 0 ]; do
        case "$1" in
          -e|--env) [[ "$2" == *=* ]] && export "$2"; shift 2 ;;
          --env=*) [[ "${1#--env=}" == *=* ]] && export "${1#--env=}"; shift ;;
          -w|--workdir|-u|--user|--env-file) shift 2 ;;
          -*) shift ;;
          *) shift; break ;;
        esac
      done
      [ $# -gt 0 ] && exec "$@"
    fi ;;
  pgrep|pidof|lsof|pkill|killall) exit 1 ;;  # no such process, nothing listening
  curl)
    for word in "$@"; do case "$word" in *'%{http_code}'*) printf 200 ;; esac; done ;;
  nvidia-smi) exec /bin/bash "$RW_SHIMS/_nvidia_smi" "$@" ;;
esac
exit 0
"""

# nvidia-smi's answers to the questions scripts ask it, for eight H100s.
NVIDIA_SMI = r"""
query="" units=1 header=1 only=""
while [ $# -gt 0 ]; do
  case "$1" in
    -L|--list-gpus) for i in $(seq 0 $((RW_GPUS - 1))); do echo "GPU $i: NVIDIA H100 80GB HBM3 (UUID: GPU-00000000-0000-0000-0000-00000000000$i)"; done; exit 0 ;;
    --query-gpu=*) query="${1#*=}" ;;
    --format=*) case "$1" in *noheader*) header="" ;; esac; case "$1" in *nounits*) units="" ;; esac ;;
    -i|--id) only="$2"; shift ;;
    -i*) only="${1#-i}" ;;
    --id=*) only="${1#*=}" ;;
  esac
  shift
done
[ -n "$query" ] || exit 0
field() {
  case "$1" in
    index) echo "$2" ;;
    name|gpu_name) echo "NVIDIA H100 80GB HBM3" ;;
    count) echo "$RW_GPUS" ;;
    memory.total|memory.free) echo "81559${units:+ MiB}" ;;
    memory.used) echo "0${units:+ MiB}" ;;
    compute_cap) echo "9.0" ;;
    uuid|gpu_uuid) echo "GPU-00000000-0000-0000-0000-00000000000$2" ;;
    driver_version) echo "550.54.15" ;;
    utilization.gpu|utilization.memory) echo "0${units:+ %}" ;;
    *) echo "[N/A]" ;;
  esac
}
IFS=, read -r -a fields <<< "$query"
[ -n "$header" ] && (IFS=,; echo "${fields[*]}")
for i in $(seq 0 $((RW_GPUS - 1))); do
  [ -n "$only" ] && [ "$only" != "$i" ] && continue
  line=""
  for f in "${fields[@]}"; do line="${line:+$line, }$(field "${f// /}" "$i")"; done
  echo "$line"
done
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
# A process the script killed is gone for `kill -0` (its wait-until-stopped loop ends);
# any other is running (the recorded server is up).
kill() {
  local word probe=""
  for word in "$@"; do
    case "$word" in
      -0) probe=1 ;;
      -s|-n|--) ;;
      -[0-9]*|[0-9]*) if [ -n "$probe" ]; then case " ${RW_KILLED-} " in *" ${word#-} "*) return 1 ;; esac; else RW_KILLED="${RW_KILLED-} ${word#-}"; fi ;;
    esac
  done
  return 0
}
# With its own process namespace, a run ends (all but its pid 1, a root shell, killed) once
# the launch with the mask was recorded (a second later: the next launches come with it), or
# once the script has slept RW_MAX_SLEEPS times (waiting for what the sandbox never gives).
rw_end_run() {
  (exec /bin/sh -c '/usr/bin/timeout "$0" /usr/bin/tail -f /dev/null; kill -KILL -1' "$1") > /dev/null 2>&1 &
}
"""

# Run as root inside `unshare`: mount the private root (one `mount -a` of the sandbox's fstab)
# and start the command in it as nobody. enter.sh SANDBOX CWD FOLDERS FILES -- COMMAND...;
# FOLDERS and FILES list the absolute paths to create there (one a line, may be empty).
ENTER = r"""#!/bin/sh
set -e
script_path=$PATH
PATH=/usr/sbin:/usr/bin:/sbin:/bin
sandbox=$1 cwd=$2 folders=$3 files=$4 root=$1/root
shift 5
mount -a -T "$sandbox/fstab"
if [ -s "$folders" ]; then
  while IFS= read -r path; do mkdir -p "$root$path" && chown 65534:65534 "$root$path"; done < "$folders"
fi
if [ -s "$files" ]; then
  while IFS= read -r path; do mkdir -p "$root${path%/*}" && touch "$root$path" && chown 65534:65534 "$root$path"; done < "$files"
fi
# Not exec: the script must not be the namespace's pid 1, which `kill -KILL -1` spares.
status=0
PATH=$script_path /usr/sbin/chroot "$root" /usr/bin/env --chdir="$cwd" /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@" || status=$?
# Everything left goes with this shell: first let what the script started last (`vllm serve &`
# then exit) write its record, up to a second. The end-of-run timer (sh, timeout, tail) and a
# script's own `tail -f` are not waited for.
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
  left=""
  for stat in "$root"/proc/[0-9]*/stat; do
    read -r pid name state _ 2> /dev/null < "$stat" || continue
    case "$pid:$state:$name" in 1:*|*:Z:*|*:"(sh)"|*:"(timeout)"|*:"(tail)") ;; *) left=1 ;; esac
  done
  [ -z "$left" ] && break
  sleep 0.05
done
exit $status
"""


def _fstab(sandbox: Path, root: Path) -> str:
    """The private root: a tmpfs anyone may write, the system's folders bound into it, and the
    shims over /usr/bin and /bin (an overlay: the shims hide the real programs of their names)."""
    lines = [f"none {root} tmpfs mode=1777 0 0"]
    for folder in ("usr", "etc", "bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        if os.path.isdir(f"/{folder}"):
            lines.append(f"/{folder} {root}/{folder} none rbind,X-mount.mkdir 0 0")
    lines += [
        f"/dev {root}/dev none rbind,X-mount.mkdir 0 0",
        f"none {root}/dev/shm tmpfs mode=1777 0 0",
        f"proc {root}/proc proc X-mount.mkdir 0 0",
        f"none {root}/tmp tmpfs mode=1777,X-mount.mkdir 0 0",
        f"{sandbox} {root}{sandbox} none bind,X-mount.mkdir 0 0",
        f"{os.path.dirname(REAL_PYTHON)} {root}{HIDDEN_BIN} none bind,X-mount.mkdir 0 0",
    ]
    for folder in ("usr/bin", "bin"):
        if os.path.isdir(f"/{folder}"):
            lines.append(f"overlay {root}/{folder} overlay lowerdir={sandbox}/overlay:/{folder} 0 0")
    return "".join(line + "\n" for line in lines)


@dataclass
class Invocation:
    """One command the script started (a shim or an unknown command)."""

    name: str
    argv: list[str]
    cwd: str
    env: dict[str, str]


@dataclass(frozen=True)
class Inputs:
    """What a run is given besides the script (nothing: the script as it is). Paths are
    absolute, or relative to the project's tree."""

    argv: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    folders: tuple[str, ...] = ()
    files: tuple[str, ...] = ()  # created empty: a file the script sources that its project does not ship
    call: str = ""  # a function the script defines but never calls, called after sourcing it
    from_root: bool = False  # started in the project's root instead of the script's folder

    def __bool__(self) -> bool:
        return bool(self.argv or self.env or self.folders or self.files or self.call or self.from_root)

    def describe(self) -> str:
        parts = ["started in the project's root"] if self.from_root else []
        if self.call:
            parts.append(f"sourced, then `{self.call}` called")
        if self.argv:
            parts.append("arguments " + " ".join(shlex.quote(word) for word in self.argv))
        parts.extend(f"{name}={shlex.quote(value)}" for name, value in self.env)
        parts.extend(f"folder {path}" for path in self.folders)
        parts.extend(f"empty file {path}" for path in self.files)
        return "; ".join(parts)


@dataclass
class Run:
    invocations: list[Invocation] = field(default_factory=list)
    exit_code: int | None = None
    timed_out: bool = False
    stderr: str = ""
    stdout: str = ""
    tree: Path | None = None  # where the project's files were, for paths in the messages
    inputs: Inputs = Inputs()


class Sandbox:
    """A folder with the shims, reused for every script of a run."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.bin = root / "bin"
        self.bin.mkdir(parents=True)
        for name, text in (("_shim", SHIM), ("_wrapper", WRAPPER), ("_nvidia_smi", NVIDIA_SMI)):
            (self.bin / name).write_text(text)
            (self.bin / name).chmod(0o755)
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
        self.enter = root / "enter.sh"
        self.enter.write_text(ENTER)
        (root / "root").mkdir()  # where the private root is mounted (in its own namespace only)
        (root / "overlay").mkdir()
        for name in RECORDERS:
            (root / "overlay" / name).symlink_to(self.bin / "_shim")
        (root / "fstab").write_text(_fstab(root, root / "root"))
        self.runs = 0
        self.private_root = os.geteuid() == 0 and _works(self._namespaces() + ["true"])
        self.unshare = self.private_root or _works(["unshare", "-n", "true"])

    def _namespaces(self) -> list[str]:
        return [_tool("unshare"), "--kill-child", "--pid", "--mount", "--net"]

    def run(self, files: dict[str, bytes], script: str, env: dict[str, str] | None = None, inputs: Inputs = Inputs()) -> Run:
        """Write `files` (relative path -> content) into a fresh folder and run `script`, one of
        them (or, when `script` is not among them, the text given as `bash -c`)."""
        self.runs += 1
        work = self.root / f"run{self.runs}"
        records, home, tree = work / "records", work / "home", work / "tree"
        for folder in (records, home, tree):
            folder.mkdir(parents=True)
        for rel, data in files.items():
            target = tree / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        outside_folders, outside_files = self._prepare(tree, inputs)
        if script in files:
            path = shlex.quote(str(tree / script))
            command = (
                ["bash", "-c", f'source {path}; {inputs.call} "$@"', str(tree / script)] if inputs.call else ["bash", str(tree / script)]
            )
            command += list(inputs.argv)
            cwd = tree if inputs.from_root else (tree / script).parent
        else:
            command = ["bash", "-c", script]
            cwd = tree
        _chown(work)
        environment = {
            **(env or {}),
            **dict(inputs.env),
            "PATH": str(self.bin),
            "HOME": str(home),
            "TMPDIR": str(work),
            "BASH_ENV": str(self.bash_env),
            "RW_RECORD_DIR": str(records),
            "RW_SHIMS": str(self.bin),
            "RW_GPUS": str(GPUS),
            "RW_PYTHON": f"{HIDDEN_BIN}/{os.path.basename(REAL_PYTHON)}" if self.private_root else REAL_PYTHON,
            "LANG": "C.UTF-8",
            "USER": "nobody",
            "http_proxy": "http://127.0.0.1:9",
            "https_proxy": "http://127.0.0.1:9",
        }
        full = [_tool("timeout"), "-k", "2", str(SECONDS)]
        if self.private_root:
            lists = (work / "folders.txt", work / "files.txt")
            for listing, paths in zip(lists, (outside_folders, outside_files)):
                listing.write_text("".join(f"{path}\n" for path in paths))
            full += [*self._namespaces(), "/bin/sh", str(self.enter), str(self.root), str(cwd), *map(str, lists), "--"]
            (work / "sleeps").mkdir()
            _chown(work / "sleeps")
            environment.update(RW_END="1", RW_SLEEPS=str(work / "sleeps"), RW_MAX_SLEEPS=str(MAX_SLEEPS))
        else:
            full += [_tool("unshare"), "-n"] if self.unshare else []
            full += [_tool("setpriv"), f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"] if os.geteuid() == 0 else []
        full += ["/bin/bash", *command[1:]]
        result = Run(tree=tree, inputs=inputs)
        try:
            done = subprocess.run(full, cwd=cwd, env=environment, capture_output=True, timeout=SECONDS + 10, stdin=subprocess.DEVNULL)
            result.exit_code = done.returncode
            result.timed_out = done.returncode == 124
            result.stderr = done.stderr.decode(errors="replace")[-4000:]
            result.stdout = done.stdout.decode(errors="replace")[-4000:]
        except subprocess.TimeoutExpired:
            result.timed_out = True
        result.invocations = [_read(path) for path in sorted(records.iterdir())]
        result.invocations = [i for i in result.invocations if i is not None]
        return result  # the folder stays until the sandbox goes: a recorded --config may point into it

    def _prepare(self, tree: Path, inputs: Inputs) -> tuple[list[str], list[str]]:
        """Create the input's folders and files in the tree; return those outside it (made in
        the private root, or not at all without one)."""
        outside: tuple[list[str], list[str]] = ([], [])
        for kind, paths in enumerate((inputs.folders, inputs.files)):
            for path in paths:
                target = Path(os.path.normpath(tree / path))
                if not str(target).startswith(str(self.root) + os.sep):
                    outside[kind].append(str(target))
                elif kind == 0:
                    target.mkdir(parents=True, exist_ok=True)
                else:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.touch()
        return outside

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
