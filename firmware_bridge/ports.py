"""Finding and opening the LED controller's serial port (pyserial)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import serial
from serial.tools import list_ports

from .errors import ControllerNotFoundError, PortOpenError

PICO_VID = 0x2E8A  # Raspberry Pi
PICO_PID = 0x0005  # MicroPython on RP2040/RP2350 (USB CDC)
BAUDRATE = 115200  # ignored by USB CDC, kept for USB-serial adapters


@dataclass(frozen=True, slots=True)
class PortInfo:
    """One serial port and whether it looks like the LED controller."""

    device: str
    vid: int | None
    pid: int | None
    description: str
    serial_number: str | None
    is_controller: bool

    @property
    def usb_id(self) -> str:
        """``VID:PID`` in hex, or ``-`` for a non-USB port."""
        return "-" if self.vid is None else "%04X:%04X" % (self.vid, self.pid or 0)


def describe_ports(comports: Iterable[Any], vid: int = PICO_VID, pid: int = PICO_PID) -> list[PortInfo]:
    """PortInfo for each of pyserial's ``comports()`` entries, controllers first."""
    infos = [_info(p, vid, pid) for p in comports]
    return sorted(infos, key=lambda i: (not i.is_controller, i.device))


def list_candidates(vid: int = PICO_VID, pid: int = PICO_PID) -> list[PortInfo]:
    """Serial ports of this machine, controllers first."""
    return describe_ports(list_ports.comports(), vid, pid)


def find_controller(ports: Iterable[PortInfo]) -> str:
    """Device path of the first controller in ``ports``; ControllerNotFoundError if none."""
    for info in ports:
        if info.is_controller:
            return info.device
    raise ControllerNotFoundError(
        "no LED controller found: no USB serial device %04X:%04X (Raspberry Pi Pico with MicroPython) "
        "is plugged in; check the USB cable, or name the port with --port" % (PICO_VID, PICO_PID)
    )


def _info(port: Any, vid: int, pid: int) -> PortInfo:
    match = port.vid == vid and port.pid == pid
    return PortInfo(port.device, port.vid, port.pid, port.description or "", port.serial_number, match)


class SerialConnector:
    """Opens the controller's port on each call: the configured one, or found by VID:PID.

    Constructing it opens nothing.  Each call returns a freshly opened, exclusive,
    non-blocking ``serial.Serial``.
    """

    def __init__(
        self,
        port: str | None = None,
        vid: int = PICO_VID,
        pid: int = PICO_PID,
        open_serial: Callable[..., Any] = serial.Serial,
        scan: Callable[[], Iterable[Any]] = list_ports.comports,
    ) -> None:
        self._port = port
        self._vid, self._pid = vid, pid
        self._open = open_serial
        self._scan = scan

    def __call__(self) -> Any:
        """An open port to the controller."""
        path = self._port or find_controller(describe_ports(self._scan(), self._vid, self._pid))
        try:
            return self._open(path, BAUDRATE, timeout=0, write_timeout=0.5, exclusive=True)
        except serial.SerialException as exc:
            raise _open_error(path, exc) from None


def _open_error(path: str, exc: Exception) -> Exception:
    text = str(exc)
    if "No such file" in text or "could not open port" in text and "[Errno 2]" in text:
        return ControllerNotFoundError("no LED controller at %s: the port does not exist" % path)
    return PortOpenError("cannot open the LED controller at %s: %s (is another program using it?)" % (path, text))
