"""The live web page of the referee: board, verdicts, buttons, teaching, records, calibration.

Public surface::

    WebServer(service, host, port, pin, calibration_source)   .start() .stop() .banner() .handle(item)
    make_pin()                                                 a random 6-digit PIN
    FrameKeeper, KeptSource, CameraPort                        the camera side of the calibration view

Importing this package starts nothing; Starlette and uvicorn are imported by ``start()``.
"""

from .calibration import CameraPort, FrameKeeper, KeptSource
from .guard import make_pin
from .server import WebServer

__all__ = ["CameraPort", "FrameKeeper", "KeptSource", "WebServer", "make_pin"]
