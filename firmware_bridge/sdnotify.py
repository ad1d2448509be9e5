"""systemd's notify protocol for ``Type=notify`` services (``hardware/bgref.service``).

The service sends ``READY=1`` once it runs and ``WATCHDOG=1`` at least every
``WatchdogSec / 2``; outside systemd (no ``NOTIFY_SOCKET``) nothing is sent.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


def notify(message: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Send ``message`` (e.g. ``"READY=1"``) to systemd; False when not run by systemd."""
    address = environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # abstract namespace
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.sendto(message.encode("utf-8"), address)
    return True


def watchdog_interval(environ: Mapping[str, str] = os.environ) -> float | None:
    """Seconds between ``WATCHDOG=1`` messages (half of WatchdogSec), or None without a watchdog."""
    usec = environ.get("WATCHDOG_USEC")
    if not usec or environ.get("WATCHDOG_PID", str(os.getpid())) != str(os.getpid()):
        return None
    return int(usec) / 2e6
