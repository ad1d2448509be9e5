"""systemd notify messages reach a real unix datagram socket."""

from __future__ import annotations

import doctest
import os
import socket

import firmware_bridge.signals
from firmware_bridge.sdnotify import notify, watchdog_interval


def test_notify_sends_to_the_socket(tmp_path):
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(path)
        assert notify("READY=1", {"NOTIFY_SOCKET": path}) is True
        assert server.recv(64) == b"READY=1"


def test_notify_outside_systemd_does_nothing():
    assert notify("WATCHDOG=1", {}) is False


def test_watchdog_interval_is_half_of_watchdogsec():
    pid = str(os.getpid())
    assert watchdog_interval({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": pid}) == 5.0
    assert watchdog_interval({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_interval({}) is None


def test_signal_docstrings_run():
    result = doctest.testmod(firmware_bridge.signals)
    assert result.attempted >= 3 and result.failed == 0
