"""Finding the controller among pyserial's port list, and opening it."""

from __future__ import annotations

import pytest
import serial
from serial.tools.list_ports_common import ListPortInfo

from firmware_bridge import ControllerNotFoundError, PortOpenError, SerialConnector
from firmware_bridge.ports import describe_ports, find_controller


def port(device, vid=None, pid=None, description="n/a"):
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.description = vid, pid, description
    return info


PORTS = [
    port("/dev/ttyS0"),
    port("/dev/ttyACM1", 0x2341, 0x0043, "Arduino Uno"),
    port("/dev/ttyACM0", 0x2E8A, 0x0005, "Board in FS mode"),
]


def test_the_pico_is_found_by_vid_pid_and_listed_first():
    infos = describe_ports(PORTS)
    assert [i.device for i in infos] == ["/dev/ttyACM0", "/dev/ttyACM1", "/dev/ttyS0"]
    assert infos[0].is_controller and infos[0].usb_id == "2E8A:0005" and infos[2].usb_id == "-"
    assert find_controller(infos) == "/dev/ttyACM0"


def test_no_pico_is_a_clear_lookup_error():
    with pytest.raises(ControllerNotFoundError, match="2E8A:0005") as info:
        find_controller(describe_ports(PORTS[:2]))
    assert isinstance(info.value, LookupError)


def test_the_connector_opens_the_found_port_exclusively_and_non_blocking():
    opened = []
    connector = SerialConnector(open_serial=lambda *a, **kw: opened.append((a, kw)) or "port", scan=lambda: PORTS)
    assert opened == []  # constructing opens nothing
    assert connector() == "port"
    (args, kwargs), = opened
    assert args[0] == "/dev/ttyACM0" and kwargs["exclusive"] is True and kwargs["timeout"] == 0


def test_a_busy_port_is_a_port_open_error():
    def busy(*args, **kwargs):
        raise serial.SerialException("[Errno 11] Could not exclusively lock port /dev/ttyACM0")

    with pytest.raises(PortOpenError, match="another program"):
        SerialConnector(open_serial=busy, scan=lambda: PORTS)()
