"""Snapshots (exact file restore + OS state, speed) and the emulator-style console, with a fake OS.

The console is also driven through the real `adb emu`, which reads the token from $HOME."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from console_client import ConsoleClient

from spa_bench.phone.console import Console, read_or_create_token
from spa_bench.phone.snapshot import SnapshotError, SnapshotStore

if TYPE_CHECKING:
    from conftest import AdbCli


class FakeSystem:
    """Only what snapshots need: a lock and in-memory state."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.state: dict[str, object] = {"focus": "launcher", "clipboard": ""}
        self.loads = 0

    def save_state(self) -> dict[str, object]:
        return dict(self.state)

    def load_state(self, state: dict[str, object]) -> None:
        self.state = dict(state)
        self.loads += 1


def tree(root: Path) -> dict[str, bytes | None]:
    out: dict[str, bytes | None] = {}
    for dirpath, dirs, files in os.walk(root):
        for d in dirs:
            out[os.path.relpath(os.path.join(dirpath, d), root) + "/"] = None
        for f in files:
            path = os.path.join(dirpath, f)
            out[os.path.relpath(path, root)] = Path(path).read_bytes()
    return out


@pytest.fixture
def store(tmp_path: Path) -> Iterator[tuple[SnapshotStore, FakeSystem, Path]]:
    fs = tmp_path / "fs"
    (fs / "data/data/com.app/databases").mkdir(parents=True)
    (fs / "sdcard/DCIM").mkdir(parents=True)
    (fs / "data/data/com.app/databases/app.db").write_bytes(b"db-v1" * 1000)
    (fs / "sdcard/DCIM/photo.jpg").write_bytes(os.urandom(3 * 1024 * 1024))
    for i in range(200):
        (fs / "sdcard" / f"note{i}.txt").write_text(f"note {i}")
    system = FakeSystem()
    s = SnapshotStore(tmp_path, system)  # type: ignore[arg-type]
    yield s, system, fs
    s.close()


def test_snapshot_restores_files_and_state(store: tuple[SnapshotStore, FakeSystem, Path]) -> None:
    snapshots, system, fs = store
    before = tree(fs)
    snapshots.save("clean")
    (fs / "data/data/com.app/databases/app.db").write_bytes(b"db-v2")  # modified
    (fs / "sdcard/note3.txt").unlink()  # deleted
    (fs / "sdcard/new/deep").mkdir(parents=True)  # added
    (fs / "sdcard/new/deep/x.bin").write_bytes(b"x")
    system.state = {"focus": "settings", "clipboard": "copied"}
    snapshots.load("clean")
    assert tree(fs) == before
    assert system.state == {"focus": "launcher", "clipboard": ""}
    (fs / "sdcard/note4.txt").write_text("changed again")
    snapshots.load("clean")  # the second load uses a fresh spare
    assert tree(fs) == before
    assert [info.name for info in snapshots.list()] == ["clean"]


def test_snapshot_load_restores_every_time(store: tuple[SnapshotStore, FakeSystem, Path]) -> None:
    snapshots, _system, fs = store
    snapshots.save("s")
    # Its speed is measured by benchmarks/phone_latency.py, not asserted here.
    for i in range(15):
        (fs / "sdcard" / f"dirty{i}.txt").write_text("dirty")
        time.sleep(0.05)  # let the background spare copy finish, as between two episodes
        snapshots.load("s")
        assert not (fs / "sdcard" / f"dirty{i}.txt").exists()


def test_back_to_back_loads_take_ready_spares(store: tuple[SnapshotStore, FakeSystem, Path],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Loads in quick succession (a reset loop) swap in copies made ahead of time: SPARES loads in a row
    finish while the background copies are held back, so none waited for a copy, and each restores the
    snapshot exactly."""
    import spa_bench.phone.snapshot as snapshot_module

    snapshots, _system, fs = store
    before = tree(fs)
    snapshots.save("s")
    snapshots._wait_spares("s")  # SPARES copies ready, as after a pause between episodes
    release = threading.Event()  # background copies wait for it: a load that waited for one would stall
    released_in_time: list[bool] = []
    real_copy = snapshot_module._copy_tree

    def copy(src: Path, dst: Path) -> None:
        assert threading.current_thread().name.startswith("snapshot-bg"), "a load copied the tree itself"
        released_in_time.append(release.wait(5))
        real_copy(src, dst)

    monkeypatch.setattr(snapshot_module, "_copy_tree", copy)
    for _ in range(snapshot_module.SPARES):
        (fs / "sdcard/dirty.txt").write_text("dirty")
        snapshots.load("s")
        assert tree(fs) == before
    release.set()
    snapshots._wait_spares("s")
    assert released_in_time and all(released_in_time), "a load waited for a background copy"


def test_snapshot_errors(store: tuple[SnapshotStore, FakeSystem, Path]) -> None:
    snapshots, _system, _fs = store
    with pytest.raises(SnapshotError, match="does not exist"):
        snapshots.load("missing")
    with pytest.raises(SnapshotError, match="invalid snapshot name"):
        snapshots.save("../escape")
    snapshots.save("a")
    snapshots.save("a")  # overwrite is fine
    snapshots.delete("a")
    assert snapshots.list() == []


# -- console ---------------------------------------------------------------------------------------------

@pytest.fixture
def console(store: tuple[SnapshotStore, FakeSystem, Path],
            tmp_path: Path) -> Iterator[tuple[Console, list[str]]]:
    snapshots, _system, _fs = store
    kills: list[str] = []
    token = tmp_path / "home" / ".emulator_console_auth_token"
    c = Console(0, "spa_vphone", snapshots, on_kill=lambda: kills.append("kill"), token_path=token)
    c.start()
    yield c, kills
    c.stop()


def test_token_file_created_and_empty_means_no_auth(tmp_path: Path) -> None:
    path = tmp_path / "t" / ".emulator_console_auth_token"
    token = read_or_create_token(path)
    assert len(token) == 16
    assert path.read_text() == token
    assert read_or_create_token(path) == token
    path.write_text("")
    assert read_or_create_token(path) == ""


def test_console_auth_and_commands(console: tuple[Console, list[str]]) -> None:
    server, kills = console
    client = ConsoleClient(server.port)
    greeting = client.greeting
    assert "Authentication required" in greeting
    assert greeting.endswith("OK\r\n")
    assert client.cmd("avd snapshot list").endswith("KO:  bad sub-command\r\n")  # not yet authenticated
    assert client.cmd("avd name") == "spa_vphone\r\nOK\r\n"  # the emulator allows it before auth
    assert client.cmd("auth wrong") == ("KO: authentication token does not match "
                                        "~/.emulator_console_auth_token\r\n")
    assert client.cmd(f"auth {server.token}").endswith("OK\r\n")
    assert client.cmd("ping") == "I am alive!\r\nOK\r\n"
    assert client.cmd("avd name") == "spa_vphone\r\nOK\r\n"
    assert "avd snapshot" in client.cmd("help avd")
    assert client.cmd("avd snapshot save base") == "OK\r\n"
    assert "base" in client.cmd("avd snapshot list")
    assert client.cmd("avd snapshot load base") == "OK\r\n"
    assert client.cmd("avd snapshot load nothing").startswith("KO: snapshot 'nothing' does not exist")
    assert client.cmd("avd snapshot delete base") == "OK\r\n"
    assert client.cmd("bogus").startswith("KO:")
    # no modem behind this console: the emulator's answers when its modem / GPS emulation is absent
    assert client.cmd("sms send 5550100 hi") == "KO: modem emulation not running\r\n"
    assert client.cmd("gsm call 5550100") == "KO: modem emulation not running\r\n"
    assert client.cmd("geo fix 1 2") == "KO: no GPS emulation in this virtual device\r\n"
    assert client.cmd("kill") == "OK: killing emulator, bye bye\r\n"
    deadline = time.monotonic() + 60
    while not kills and time.monotonic() < deadline:
        time.sleep(0.01)
    assert kills == ["kill"]


def test_adb_emu_talks_to_console(console: tuple[Console, list[str]], adb_cli: AdbCli) -> None:
    server, _kills = console
    token_file = adb_cli.home / ".emulator_console_auth_token"
    token_file.write_text(server.token)  # adb emu reads $HOME/.emulator_console_auth_token
    serial = f"emulator-{server.port}"
    assert adb_cli.text("emu", "avd", "name", serial=serial).split() == ["spa_vphone", "OK"]
    adb_cli.run("emu", "avd", "snapshot", "save", "viaadb", serial=serial)
    assert [i.name for i in server.snapshots.list()] == ["viaadb"]
    out = adb_cli.text("emu", "avd", "snapshot", "load", "viaadb", serial=serial)
    assert out.strip() == "OK"


def test_phones_started_together_share_one_token(tmp_path: Path) -> None:
    path = tmp_path / ".emulator_console_auth_token"
    barrier = threading.Barrier(8)
    tokens: list[str] = []

    def one() -> None:
        barrier.wait()
        tokens.append(read_or_create_token(path))

    threads = [threading.Thread(target=one) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(tokens)) == 1
    assert tokens[0] == path.read_text()
    assert len(tokens[0]) == 16
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no staging files left
