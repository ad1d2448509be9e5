"""Errors of the firmware bridge: one root, leaves that also subclass a builtin."""

from __future__ import annotations


class BridgeError(Exception):
    """Root of every error raised by ``firmware_bridge`` (protocol errors excepted)."""


class InvalidSignalError(BridgeError, ValueError):
    """A signal asked for with arguments the board cannot show (side, cube value)."""


class InvalidSpotError(InvalidSignalError):
    """A point or LED name that the board does not have."""


class ControllerNotFoundError(BridgeError, LookupError):
    """No LED controller is plugged in (or the configured port does not exist)."""


class PortOpenError(BridgeError, OSError):
    """The controller's port exists but cannot be opened (busy, permissions)."""


class ControllerLostError(BridgeError, ConnectionError):
    """The controller was unplugged or stopped answering."""


class FirmwareVersionError(BridgeError, ValueError):
    """The controller runs firmware that this bridge cannot talk to."""


class DeviceReportedError(BridgeError, IOError):
    """The controller refused a frame (it answered with a NACK)."""
