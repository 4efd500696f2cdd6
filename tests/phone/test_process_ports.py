"""A phone process whose picked port another process takes before the phone binds it starts again on
another pair (the race pytest-xdist workers and a user's other programs can win)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from spa_bench.phone import process
from spa_bench.phone.server import find_free_port_pair


def test_a_phone_whose_port_was_taken_starts_on_another_pair(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    taken_port = find_free_port_pair()
    squatter = socket.socket()
    squatter.bind(("127.0.0.1", taken_port - 1))  # the console port, held as another process would
    squatter.listen()
    picks = iter([taken_port])

    def pick(avoid: set[int] | None = None) -> int:  # the first pick loses the race, then as usual
        return next(picks, None) or find_free_port_pair(avoid)

    monkeypatch.setattr(process, "find_free_port_pair", pick)
    try:
        with process.start_phone_processes(1, data_root=tmp_path / "phones") as pool:
            assert pool.phones[0].port != taken_port
            assert "already in use" in (tmp_path / "phones" / f"phone-{taken_port}" / "phone.log").read_text()
    finally:
        squatter.close()
