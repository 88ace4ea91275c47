"""The result cache: nothing a checked tree holds is executed, trusted or followed.

A tree can ship a `.replaylint_cache` of its own (force-added, or a hostile pull request's): its
stores must neither run code nor hide a finding, a cache folder that links elsewhere must not be
written through or removed through, and a store that is broken in any way is read as absent.
Each run here has its own user cache folder (`XDG_CACHE_HOME`), where the key that
authenticates the stores lives.
"""

from __future__ import annotations

import json
import os
import pickle
import shlex
import stat
import time
from array import array
from pathlib import Path

import pytest

from .conftest import replaylint

BAD = b"vllm serve m --return-sampling-mask --enable-scale-out\n"  # RPL003: no processed_logprobs
GOOD = b"vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"


def check(tree: Path, home: Path, *args: str):
    """`replaylint check ARGS` in `tree`, with `home` as the user's cache folder (its key), once
    the files the test just wrote are old enough for the cache to keep their stats (a tenth of a
    second on a file system with fine times: `engine.cache.ResultCache.settled`)."""
    time.sleep(0.25)
    completed = replaylint("check", *args, cwd=tree, env={"XDG_CACHE_HOME": str(home)})
    assert b"Traceback" not in completed.stderr, completed.stderr.decode()
    return completed


def codes(completed) -> list[str]:
    return [line.split()[1] for line in completed.stdout.decode().splitlines() if ": RPL" in line]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    root.mkdir()
    (root / "run.sh").write_bytes(BAD)
    (root / "setup.py").write_text("import os\n")
    return root


class _Payload:
    """What a hostile pickle holds: unpickling it runs a shell command."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        return os.system, (self.command,)


def test_a_pickle_the_tree_ships_in_its_cache_folder_never_runs(tree: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    hostile = pickle.dumps(_Payload(f"touch {shlex.quote(str(marker))}"))
    shipped = tree / ".replaylint_cache"
    shipped.mkdir()
    for name in ("clean-0.1.0-3.pickle", "trees-0.1.0-3.pickle", "results-0000000000000000.pickle", "clean-0.1.0-3.json"):
        (shipped / name).write_bytes(hostile)
    for args in (("run.sh",), (".",)):
        completed = check(tree, tmp_path / "home", *args)
        assert codes(completed) == ["RPL003"] and completed.returncode == 1
    assert not marker.exists()


def hide_the_bad_script(tree: Path, maker: Path) -> None:
    """Make, with the key in `maker`, a cache that says run.sh (the bad script, as it is now) was
    turned away by the prefilter: signed with the maker's key, so the maker's replaylint trusts it."""
    script = tree / "run.sh"
    script.write_bytes(b"#" * (len(BAD) - 1) + b"\n")
    assert codes(check(tree, maker, ".")) == []
    script.write_bytes(BAD)
    status = script.stat()
    (clean,) = [store for store in _stores(tree / ".replaylint_cache") if store.name.startswith("clean-")]
    from replaylint.engine.cache.stat_columns import hex_of, numbers_of

    body = json.loads(clean.read_bytes().partition(b"\n")[2])
    at = body["paths"].index("run.sh")
    numbers, inodes = numbers_of("q", body["stats"]), numbers_of("Q", body["inodes"])
    numbers[3 * at : 3 * at + 3] = array("q", [status.st_size, status.st_mtime_ns, status.st_ctime_ns])
    inodes[at] = status.st_ino
    body["stats"], body["inodes"] = hex_of(numbers), hex_of(inodes)
    clean.write_bytes(_sign(maker, clean, json.dumps(body).encode()))
    assert codes(check(tree, maker, ".")) == []  # the maker's replaylint trusts its own cache


def test_a_cache_made_by_someone_else_cannot_hide_a_finding(tree: Path, tmp_path: Path) -> None:
    hide_the_bad_script(tree, tmp_path / "maker")
    victim = tmp_path / "victim"
    for args in ((".",), ("run.sh",)):
        completed = check(tree, victim, *args)
        assert codes(completed) == ["RPL003"] and completed.returncode == 1


@pytest.mark.parametrize("shipped", ["readable by others", "a symlink"])
def test_a_key_the_tree_ships_is_not_used(tree: Path, tmp_path: Path, shipped: str) -> None:
    """A CI job may keep XDG_CACHE_HOME inside its checkout, where a pull request can put a key
    it knows beside a cache made with it: a key file that is not private is replaced."""
    known = os.urandom(32)
    maker = tmp_path / "maker"
    (maker / "replaylint").mkdir(parents=True, mode=0o700)
    (maker / "replaylint" / "cache-key").write_bytes(known)
    (maker / "replaylint" / "cache-key").chmod(0o600)
    hide_the_bad_script(tree, maker)
    shipped_key = tree / ".cache" / "replaylint" / "cache-key"
    shipped_key.parent.mkdir(parents=True)
    if shipped == "a symlink":
        shipped_key.symlink_to(maker / "replaylint" / "cache-key")
    else:
        shipped_key.write_bytes(known)
        shipped_key.chmod(0o644)
    completed = check(tree, tree / ".cache", ".")
    assert codes(completed) == ["RPL003"]
    assert not shipped_key.is_symlink() and shipped_key.read_bytes() != known
    assert (maker / "replaylint" / "cache-key").read_bytes() == known


def test_a_cache_folder_that_is_a_symlink_is_neither_written_through_nor_removed_through(tree: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("precious\n")
    (tree / ".replaylint_cache").symlink_to(elsewhere)
    completed = check(tree, tmp_path / "home", ".")
    assert codes(completed) == ["RPL003"]
    assert b".replaylint_cache is a symbolic link" in completed.stderr
    assert completed.stderr.count(b"result cache") == 1  # said once
    assert sorted(os.listdir(elsewhere)) == ["keep.txt"]
    cleaned = replaylint("clean", cwd=tree)
    assert b"Traceback" not in cleaned.stderr and cleaned.returncode == 0
    assert not os.path.lexists(tree / ".replaylint_cache")  # the link itself is gone
    assert (elsewhere / "keep.txt").read_text() == "precious\n"


def test_a_dangling_cache_link_and_a_linked_gitignore_create_nothing_outside(tree: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (tree / ".replaylint_cache").symlink_to(outside / "cache")
    check(tree, tmp_path / "home", ".")
    assert not (outside / "cache").exists()
    (tree / ".replaylint_cache").unlink()
    (tree / ".replaylint_cache").mkdir()
    (tree / ".replaylint_cache" / ".gitignore").symlink_to(outside / "ignored")
    check(tree, tmp_path / "home", ".")
    assert os.listdir(outside) == []
    assert (tree / ".replaylint_cache" / ".gitignore").read_text().strip().endswith("*")


def test_clean_removes_only_what_replaylint_wrote(tree: Path, tmp_path: Path) -> None:
    check(tree, tmp_path / "home", ".")
    cache = tree / ".replaylint_cache"
    (cache / "notes.txt").write_text("mine\n")
    cleaned = replaylint("clean", cwd=tree)
    assert b"Traceback" not in cleaned.stderr and cleaned.returncode == 2
    assert b"notes.txt" in cleaned.stderr
    assert (cache / "notes.txt").read_text() == "mine\n"
    (cache / "notes.txt").unlink()
    cleaned = replaylint("clean", cwd=tree)
    assert cleaned.returncode == 0 and not cache.exists()
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("data\n")
    cleaned = replaylint("clean", "--cache-dir", str(not_a_folder), cwd=tree)
    assert b"Traceback" not in cleaned.stderr and cleaned.returncode == 2 and not_a_folder.read_text() == "data\n"


def test_special_files_in_place_of_the_stores_neither_block_nor_break_a_run(tree: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    check(tree, home, ".")
    stores = _stores(tree / ".replaylint_cache")
    assert len(stores) == 4  # results, files turned away, folders walked, files read for clients
    fifo, device, folder, second_fifo = stores
    for store in stores:
        store.unlink()
    os.mkfifo(fifo)  # a plain open() waits for a writer forever
    os.mkfifo(second_fifo)
    device.symlink_to("/dev/zero")
    folder.mkdir()
    for _ in range(2):
        completed = check(tree, home, ".")
        assert codes(completed) == ["RPL003"] and completed.returncode == 1
    assert fifo.is_file() and second_fifo.is_file() and device.is_file() and not device.is_symlink()  # written anew, in place
    assert folder.is_dir()


def _stores(cache: Path) -> list[Path]:
    return sorted(path for path in cache.iterdir() if path.name.endswith(".json"))


def _sign(home: Path, store: Path, body: bytes) -> bytes:
    """A store as this user's replaylint writes it: the keyed BLAKE2b of its name, generation and
    body (hex) on the first line, then the JSON body."""
    from replaylint.engine.cache.ownership import Generations, identity
    from replaylint.engine.cache.stores import _mac

    key = (home / "replaylint" / "cache-key").read_bytes()
    descriptor = os.open(store.parent, os.O_RDONLY)
    try:
        generation = Generations(str(home / "replaylint"), key, identity(descriptor)).current(store.name)
    finally:
        os.close(descriptor)
    return _mac(key, store.name, generation, body) + b"\n" + body


ILL_TYPED = {
    "entries that are strings": lambda data: {key: "x" for key in data},
    "entries of the wrong types": lambda data: {
        key: [1, "2", None] if isinstance(value, list) else {"digest": 3, "files": 4} for key, value in data.items()
    },
    "not an object": lambda data: ["x"],
    "nested findings of the wrong types": lambda data: {
        key: {**value, "findings": [{"code": 1, "span": "x"}]} if isinstance(value, dict) and "findings" in value else value
        for key, value in data.items()
    },
}


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty", "unsigned", *ILL_TYPED])
def test_a_broken_store_is_read_as_absent(tree: Path, tmp_path: Path, damage: str) -> None:
    home = tmp_path / "home"
    (tree / "serve.py").write_text("from vllm import LLM\nLLM('m', return_sampling_mask=True, logits_processors=['a:B'])\n")
    cold = check(tree, home, ".")
    expected = sorted(codes(cold))
    assert expected == ["RPL001", "RPL003", "RPL003"]
    stores = _stores(tree / ".replaylint_cache")
    assert len(stores) == 4  # results, files turned away, folders walked, files read for clients
    for store in stores:
        signed = store.read_bytes()
        body = signed.partition(b"\n")[2]
        if damage == "truncated":
            store.write_bytes(signed[: len(signed) // 2])
        elif damage == "garbage":
            store.write_bytes(os.urandom(len(signed)))
        elif damage == "empty":
            store.write_bytes(b"")
        elif damage == "unsigned":
            store.write_bytes(body)
        else:
            store.write_bytes(_sign(home, store, json.dumps(ILL_TYPED[damage](json.loads(body))).encode()))
    for _ in range(2):  # the second run reads what the first wrote back
        again = check(tree, home, ".")
        assert sorted(codes(again)) == expected and again.returncode == 1


def test_the_warm_cache_serves_unchanged_files_and_checks_changed_ones(tree: Path, tmp_path: Path) -> None:
    """A warm run takes an unchanged script's result from the cache (the shell parser is not even
    imported) and checks a changed one again; the key lives in the user's cache folder, private."""
    home = tmp_path / "home"
    profile = {"XDG_CACHE_HOME": str(home), "PYTHONPROFILEIMPORTTIME": "1"}
    cold = replaylint("check", ".", cwd=tree, env=profile)
    assert codes(cold) == ["RPL003"] and b"tree_sitter_bash" in cold.stderr
    warm = replaylint("check", ".", cwd=tree, env=profile)
    assert codes(warm) == ["RPL003"] and b"tree_sitter_bash" not in warm.stderr
    script = tree / "run.sh"
    script.write_bytes(GOOD)
    os.utime(script, ns=(script.stat().st_atime_ns, script.stat().st_mtime_ns + 1_000_000))
    changed = replaylint("check", ".", cwd=tree, env=profile)
    assert codes(changed) == [] and b"tree_sitter_bash" in changed.stderr
    key = home / "replaylint" / "cache-key"
    assert stat.S_IMODE((home / "replaylint").stat().st_mode) == 0o700
    assert stat.S_IMODE(key.lstat().st_mode) == 0o600 and len(key.read_bytes()) == 32
    assert not any(name.endswith(".pickle") for name in os.listdir(tree / ".replaylint_cache"))


def test_without_a_place_for_the_key_the_run_goes_on_without_the_cache(tree: Path, tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")  # XDG_CACHE_HOME below a file: no folder can be made there
    for _ in range(2):
        completed = check(tree, blocked / "cache", ".")
        assert codes(completed) == ["RPL003"] and completed.returncode == 1
        assert completed.stderr.count(b"result cache is not used") == 1
    assert not (tree / ".replaylint_cache").exists()


def test_a_file_replaced_by_one_of_the_same_size_and_time_is_read_again(tree: Path, tmp_path: Path) -> None:
    """`tar` restores a file's modification time: a script put in place of a file the prefilter
    turned away, with its size and time, is still checked (its change time and inode differ)."""
    home = tmp_path / "home"
    script = tree / "run.sh"
    script.write_bytes(b"#" * (len(BAD) - 1) + b"\n")
    assert codes(check(tree, home, ".")) == []
    times = script.stat()
    replacement = tree / "replacement"
    replacement.write_bytes(BAD)
    os.utime(replacement, ns=(times.st_atime_ns, times.st_mtime_ns))
    replacement.replace(script)
    assert codes(check(tree, home, ".")) == ["RPL003"]
    times = script.stat()
    script.write_bytes(b"#" * (len(BAD) - 1) + b"\n")  # in place: the same inode, another change time
    os.utime(script, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert codes(check(tree, home, ".")) == []
    script.write_bytes(BAD)
    os.utime(script, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert codes(check(tree, home, ".")) == ["RPL003"]


def test_a_cache_folder_that_came_with_the_tree_is_neither_read_nor_written(tree: Path, tmp_path: Path) -> None:
    """A clone of a tree that committed its cache folder, this user's own included: nothing is
    read from it (a finding it would hide is reported) and no store is written into the tree."""
    import shutil

    home = tmp_path / "home"
    hide_the_bad_script(tree, home)
    clone = tmp_path / "clone"
    shutil.copytree(tree, clone)
    shipped = {path.name: path.read_bytes() for path in (clone / ".replaylint_cache").iterdir()}
    for _ in range(2):
        completed = check(clone, home, ".")
        assert codes(completed) == ["RPL003"] and completed.returncode == 1
        assert completed.stderr.count(b"was not made by replaylint for this user") == 1
    assert {path.name: path.read_bytes() for path in (clone / ".replaylint_cache").iterdir()} == shipped
    assert replaylint("clean", cwd=clone).returncode == 0 and not (clone / ".replaylint_cache").exists()
    assert codes(check(clone, home, ".")) == ["RPL003"] and (clone / ".replaylint_cache" / ".owner").is_file()


def test_an_older_store_put_back_does_not_verify(tree: Path, tmp_path: Path) -> None:
    """Each store is signed with its generation, kept next to the key: a store of this user's
    that an earlier run wrote, put back, is read as absent (run.sh is parsed again)."""
    home = tmp_path / "home"
    profile = {"XDG_CACHE_HOME": str(home), "PYTHONPROFILEIMPORTTIME": "1"}
    assert codes(replaylint("check", ".", cwd=tree, env=profile)) == ["RPL003"]
    (results,) = [store for store in _stores(tree / ".replaylint_cache") if store.name.startswith("results-")]
    older = results.read_bytes()
    (tree / "serve.py").write_text("from vllm import LLM\nLLM('m', return_sampling_mask=True)\n")
    assert sorted(codes(replaylint("check", ".", cwd=tree, env=profile))) == ["RPL003", "RPL003"]
    warm = replaylint("check", ".", cwd=tree, env=profile)
    assert sorted(codes(warm)) == ["RPL003", "RPL003"] and b"tree_sitter_bash" not in warm.stderr
    results.write_bytes(older)
    for store in _stores(tree / ".replaylint_cache"):
        if store.name.startswith("run-"):
            store.unlink()  # the last report, given again while nothing changed, reads no results store
    put_back = replaylint("check", ".", cwd=tree, env=profile)
    assert sorted(codes(put_back)) == ["RPL003", "RPL003"] and b"tree_sitter_bash" in put_back.stderr


def _peak_memory_mib(tree: Path, home: Path) -> float:
    """The peak resident memory of `replaylint check .` in `tree` (MiB)."""
    import subprocess
    import sys

    measure = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], capture_output=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", measure, sys.executable, "-m", "replaylint", "check", "."],
        cwd=tree,
        capture_output=True,
        env={**os.environ, "XDG_CACHE_HOME": str(home)},
        timeout=60,
    )
    return int(done.stdout) / 1024


def _sparse(path: Path, size: int) -> None:
    with open(path, "wb") as stream:
        stream.truncate(size)


def test_committed_stores_of_hundreds_of_mib_cost_no_memory(tree: Path, tmp_path: Path) -> None:
    from replaylint.engine.cache.stores import STORE_BYTES

    shipped = tree / ".replaylint_cache"
    shipped.mkdir()
    for name in ("results-0000000000000000.json", "clean-0.1.0-6.json", "trees-0.1.0-6.json"):
        _sparse(shipped / name, STORE_BYTES)
    assert _peak_memory_mib(tree, tmp_path / "home") < 150
    assert all((shipped / name).stat().st_size == STORE_BYTES for name in os.listdir(shipped) if name.endswith(".json"))


def test_a_store_above_the_limit_in_this_users_folder_is_removed_unread(tree: Path, tmp_path: Path) -> None:
    from replaylint.engine.cache.stores import STORE_BYTES

    home = tmp_path / "home"
    check(tree, home, ".")
    stores = _stores(tree / ".replaylint_cache")
    for store in stores:
        _sparse(store, STORE_BYTES + 1)
    assert _peak_memory_mib(tree, home) < 150
    assert all(not store.exists() or store.stat().st_size < STORE_BYTES for store in stores)
