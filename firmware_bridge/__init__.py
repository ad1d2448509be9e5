"""The bridge from the referee to the physical board: LED controller link, signals, buttons.

Public surface::

    Signals            the referee's vocabulary (illegal_play, your_turn, cube, ...)
    SIGNAL_TABLE       colours and patterns of every signal, in one table
    LedController      serial link to the Pico LED controller (an LED sink)
    SerialConnector    finds (USB VID:PID 2E8A:0005) and opens the controller's port
    SimulatedBoard     LED sink without hardware: text and JSON of what the LEDs show
    LedState, Light    immutable LED values; Layout maps LED names to strip indices
    ButtonPanel, StatusLight, PinMap, open_buttons, open_status_led   Pi GPIO
    BridgeError        root of this package's errors

Importing this package opens no port and touches no pin.
"""

from .errors import (
    BridgeError,
    ControllerLostError,
    ControllerNotFoundError,
    DeviceReportedError,
    FirmwareVersionError,
    InvalidSignalError,
    InvalidSpotError,
    PortOpenError,
)
from .gpio import ButtonPanel, ButtonPress, PinMap, StatusLight, open_buttons, open_status_led
from .layout import LED_COUNT, LED_NAMES, Layout
from .leds import Colour, LedSink, LedState, Light, Pattern
from .link import LedController, LinkStatus, Timing
from .ports import PICO_PID, PICO_VID, PortInfo, SerialConnector, list_candidates
from .signals import SIGNAL_TABLE, Look, Scene, SignalKind, Signals, render, status_look
from .simulated import SimulatedBoard, render_text, state_dict

__all__ = [
    "LED_COUNT",
    "LED_NAMES",
    "PICO_PID",
    "PICO_VID",
    "SIGNAL_TABLE",
    "BridgeError",
    "ButtonPanel",
    "ButtonPress",
    "Colour",
    "ControllerLostError",
    "ControllerNotFoundError",
    "DeviceReportedError",
    "FirmwareVersionError",
    "InvalidSignalError",
    "InvalidSpotError",
    "Layout",
    "LedController",
    "LedSink",
    "LedState",
    "Light",
    "LinkStatus",
    "Look",
    "Pattern",
    "PinMap",
    "PortInfo",
    "PortOpenError",
    "Scene",
    "SerialConnector",
    "SignalKind",
    "Signals",
    "SimulatedBoard",
    "StatusLight",
    "Timing",
    "list_candidates",
    "open_buttons",
    "open_status_led",
    "render",
    "render_text",
    "state_dict",
    "status_look",
]
