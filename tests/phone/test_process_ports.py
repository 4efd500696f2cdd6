"""Phones on automatic ports never lose a port race: a phone binds the pair it picked, and a pair that
another process took after it was picked is given up for another (the race pytest-xdist workers and a
user's other programs can win). A phone process picks its own pair and reports it, so the harness never
connects to somebody else's listener on a port it picked for its phone."""

from __future__ import annotations

import socket
from dataclasses import replace
from pathlib import Path

import pytest

from spa_bench.errors import PortInUse
from spa_bench.phone import process, server
from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.server import AUTO_PORT, VirtualPhone, find_free_port_pair


def test_a_phone_whose_picked_port_was_taken_binds_another_pair(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    taken_port = find_free_port_pair()
    squatter = socket.socket()
    squatter.bind(("127.0.0.1", taken_port - 1))  # the console port, held as another process would
    squatter.listen()
    picks = iter([taken_port])

    def pick(avoid: set[int] | None = None) -> int:  # the first pick loses the race, then as usual
        return next(picks, None) or find_free_port_pair(avoid)

    monkeypatch.setattr(server, "find_free_port_pair", pick)
    phone = VirtualPhone(replace(PhoneConfig(), port=AUTO_PORT, data_dir=tmp_path / "phone"))
    try:
        phone.start()
        assert phone.config.port not in (AUTO_PORT, taken_port)
        assert phone.serial == f"127.0.0.1:{phone.config.port}"
        with socket.create_connection(("127.0.0.1", phone.config.port), timeout=5):
            pass
    finally:
        phone.stop()
        squatter.close()


def test_a_phone_on_a_fixed_port_that_is_taken_fails_naming_it(tmp_path: Path) -> None:
    port = find_free_port_pair()
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", port))
        squatter.listen()
        phone = VirtualPhone(replace(PhoneConfig(), port=port, data_dir=tmp_path / "phone"))
        with pytest.raises(PortInUse, match=f"port {port} on 127.0.0.1 is already in use"):
            phone.start()


def test_phone_processes_report_the_ports_they_bound(tmp_path: Path) -> None:
    with process.start_phone_processes(2, data_root=tmp_path / "phones") as pool:
        ports = [p.port for p in pool.phones]
        assert len(set(ports)) == 2 and AUTO_PORT not in ports
        for phone in pool.phones:
            assert process.read_ready_file(phone.data_dir / process.READY_FILE) == phone.port
            with socket.create_connection(("127.0.0.1", phone.console_port), timeout=5) as console:
                console.settimeout(10)
                assert b"Android Console" in console.recv(4096)
