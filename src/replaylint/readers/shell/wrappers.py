"""The options of the commands that run another command (`exec`, `env`, `sudo`, `numactl`,
`srun`, `uv run`, `docker run` ...): which take a value, which stop the command from running
one, and how many operands come before the command. Tables, laid out by hand.
"""

from __future__ import annotations

from ...programs import PIPX_RUN_FLAGS, PIPX_RUN_VALUES, UV_RUN_VALUES, UVX_VALUES
from ...records import record


@record(unsafe_hash=True)
class Wrapper:
    """A command that runs the rest of its words as a command."""

    flags: frozenset[str] = frozenset()  # options without a value
    values: frozenset[str] = frozenset()  # options that take the next word (or `=value`)
    operands: int = 0  # words between the options and the command (`timeout 60`, `taskset 0-3`)
    stop: frozenset[str] = frozenset()  # options that mean "not running a command"
    lenient: bool = False  # unknown options are flags (tools whose options never take values)
    digits_are_flags: bool = False  # `nice -10 cmd`
    subcommand: str = ""  # the word that must follow the command (`apptainer exec`)
    site_options: bool = False  # a site adds long options (Slurm's SPANK plugins): one word when `--name=value`


def _set(*items: str) -> frozenset[str]:
    return frozenset(items)


# fmt: off
# `apptainer exec [options] IMAGE CMD` (Apptainer 1.3 / SingularityCE 4 `exec` options)
_APPTAINER = Wrapper(
    _set(
        "--nv", "--nvccli", "--rocm", "-e", "--cleanenv", "-C", "--containall", "-c", "--contain", "-w", "--writable",
        "--writable-tmpfs", "-f", "--fakeroot", "--no-home", "--no-privs", "-u", "--userns", "--no-init", "--compat",
        "--no-https", "--no-eval", "-i", "--ipc", "-p", "--pid", "--keep-privs", "--allow-setuid", "--unsquash",
    ),
    _set(
        "-B", "--bind", "--env", "--env-file", "-H", "--home", "--pwd", "-o", "--overlay", "-W", "--workdir", "--app",
        "--security", "--mount", "--network", "--network-args", "-S", "--scratch", "--hostname", "--dns", "--fusemount",
        "--no-mount", "--apply-cgroups", "--cpus", "--memory", "--add-caps", "--drop-caps",
    ),
    operands=1,
    subcommand="exec",
)

WRAPPERS: dict[str, Wrapper] = {
    "exec": Wrapper(_set("-c", "-l", "-cl", "-lc"), _set("-a")),
    "nohup": Wrapper(),
    "standard-supervisor": Wrapper(),  # SageMaker's model-hosting-container-standards: runs its arguments
    "time": Wrapper(_set("-p", "-v", "-q", "--verbose", "--quiet", "--portability"), _set("-o", "-f", "--output", "--format")),
    "command": Wrapper(_set("-p"), stop=_set("-v", "-V")),
    "builtin": Wrapper(),
    "setsid": Wrapper(_set("-c", "-f", "-w", "--ctty", "--fork", "--wait")),
    "numactl": Wrapper(
        _set("-l", "--localalloc", "-a", "--all", "-b", "--balancing"),
        _set("-N", "-m", "-C", "-i", "-p", "-P", "--cpunodebind", "--membind", "--physcpubind", "--interleave", "--preferred", "--preferred-many"),
        stop=_set("-H", "--hardware", "-s", "--show"),
    ),
    "taskset": Wrapper(_set("-a", "-c", "--all-tasks", "--cpu-list", "-ac", "-ca"), operands=1, stop=_set("-p", "--pid")),
    "nice": Wrapper(values=_set("-n", "--adjustment"), digits_are_flags=True),
    "ionice": Wrapper(_set("-t", "--ignore"), _set("-c", "-n", "--class", "--classdata"), stop=_set("-p", "-P", "-u", "--pid", "--pgid", "--uid")),
    "stdbuf": Wrapper(values=_set("-i", "-o", "-e", "--input", "--output", "--error")),
    "timeout": Wrapper(_set("--preserve-status", "--foreground", "-v", "--verbose"), _set("-s", "-k", "--signal", "--kill-after"), operands=1),
    "chronic": Wrapper(_set("-e", "-v")),
    "caffeinate": Wrapper(lenient=True),
    "tini": Wrapper(_set("--", "-s", "-g", "-v", "-vv", "-vvv", "-w", "-l", "-e"), _set("-p")),
    "dumb-init": Wrapper(_set("-c", "--single-child", "-v", "--verbose"), _set("-r", "--rewrite")),
    "gosu": Wrapper(operands=1),
    "su-exec": Wrapper(operands=1),
    "apptainer": _APPTAINER,
    "singularity": _APPTAINER,
    "srun": Wrapper(
        _set("--exclusive", "--overlap", "--pty", "-l", "--label", "-u", "--unbuffered", "-Q", "--quiet", "-v", "--verbose", "-K", "--kill-on-bad-exit"),
        _set(
            "-N", "-n", "-c", "-p", "-t", "-J", "-o", "-e", "-w", "-x", "-G", "-A", "-q", "-D", "-m", "-w",
            "--nodes", "--ntasks", "--cpus-per-task", "--partition", "--time", "--job-name", "--output", "--error",
            "--nodelist", "--exclude", "--gpus", "--gres", "--account", "--qos", "--chdir", "--mem", "--mem-per-cpu",
            "--ntasks-per-node", "--gpus-per-node", "--gpus-per-task", "--container-image", "--container-mounts",
            "--container-workdir", "--container-name", "--mpi", "--export", "--het-group", "--cpu-bind", "--distribution",
        ),
        site_options=True,
    ),
}

WRAPPERS["uvx"] = Wrapper(values=UVX_VALUES)  # `uvx --from vllm==0.34.0 vllm serve ...`
WRAPPERS["pipx"] = Wrapper(PIPX_RUN_FLAGS, PIPX_RUN_VALUES, stop=_set("--path"), subcommand="run")  # `pipx run --spec vllm vllm serve ...`
UV_TOOL_RUN = Wrapper(values=UVX_VALUES, subcommand="run")  # `uv tool run ...`, as `uvx`
CONDA_VALUES = _set("-n", "--name", "-p", "--prefix", "--cwd")
PIXI_RUN_VALUES = _set("-e", "--environment", "--manifest-path", "--color")
# `uv run`, `conda run -n ENV`, `pixi run -e ENV` ...: the options that take a value (others are flags)
RUNNER_VALUES = {"uv": UV_RUN_VALUES, "conda": CONDA_VALUES, "micromamba": CONDA_VALUES, "mamba": CONDA_VALUES, "pixi": PIXI_RUN_VALUES}

DOCKER_RUN_VALUES = _set(
    "-a", "--attach", "--add-host", "--annotation", "--blkio-weight", "--blkio-weight-device", "--cap-add", "--cap-drop",
    "--cgroup-parent", "--cgroupns", "--cidfile", "--cpu-period", "--cpu-quota", "--cpu-rt-period", "--cpu-rt-runtime",
    "-c", "--cpu-shares", "--cpus", "--cpuset-cpus", "--cpuset-mems", "--device", "--device-cgroup-rule",
    "--device-read-bps", "--device-read-iops", "--device-write-bps", "--device-write-iops", "--dns", "--dns-option",
    "--dns-search", "--domainname", "--entrypoint", "-e", "--env", "--env-file", "--expose", "--gpus", "--group-add",
    "--health-cmd", "--health-interval", "--health-retries", "--health-start-interval", "--health-start-period",
    "--health-timeout", "-h", "--hostname", "--ip", "--ip6", "--ipc", "--isolation", "--kernel-memory", "-l", "--label",
    "--label-file", "--link", "--link-local-ip", "--log-driver", "--log-opt", "--mac-address", "-m", "--memory",
    "--memory-reservation", "--memory-swap", "--memory-swappiness", "--mount", "--name", "--network", "--net",
    "--network-alias", "--net-alias", "--oom-score-adj", "--pid", "--pids-limit", "--platform", "-p", "--publish",
    "--pull", "--restart", "--runtime", "--security-opt", "--shm-size", "--stop-signal", "--stop-timeout",
    "--storage-opt", "--sysctl", "--tmpfs", "--ulimit", "-u", "--user", "--userns", "--uts", "-v", "--volume",
    "--volume-driver", "--volumes-from", "-w", "--workdir", "--hooks-dir", "--pod", "--secret", "--userns", "--arch",
    "--os", "--variant", "--device-read-bps", "--chrootdirs", "--init-path", "--passwd-entry", "--sdnotify",
    "--timeout", "--uidmap", "--gidmap", "--subuidname", "--subgidname", "--requires", "--personality", "--preserve-fds",
)
DOCKER_FLAGS = _set(
    "--rm", "--init", "--privileged", "--read-only", "--tty", "--interactive", "--detach", "--publish-all",
    "--oom-kill-disable", "--sig-proxy", "--no-healthcheck", "--disable-content-trust", "--quiet", "--use-api-socket",
    "--replace", "--systemd", "--http-proxy", "--no-hosts", "--env-host", "--rmi", "--tls-verify", "--read-only-tmpfs",
)
DOCKER_EXEC_VALUES = _set("-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys")
DOCKERS = {"docker", "podman", "nvidia-docker"}
SUDO_VALUES = _set("-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "-R", "--user", "--group", "--chdir", "--chroot", "--prompt", "--role", "--type", "--other-user", "--host", "--close-from", "--command-timeout")
SUDO_STOP = _set("-l", "-ll", "-v", "-k", "-K", "-V", "-e", "--list", "--validate", "--reset-timestamp", "--remove-timestamp", "--version", "--edit")
# fmt: on
