"""The live web page of the referee: board, verdicts, buttons, teaching, records, calibration.

Public surface::

    WebServer(service, host, port, pin, calibration_source)   .start() .stop() .banner() .handle(item)
    make_pin()                                                 a random 6-digit PIN
    FrameKeeper, KeptSource, CameraPort                        the camera side of the calibration view

Importing this package starts nothing; Starlette and uvicorn are imported by ``start()``.

Wiring it into a live loop (``bgref watch``)::

    keeper = FrameKeeper(calibration=cal, save_to=calibration_path,
                         on_apply=lambda cal: setattr(pipeline, "reader", BoardReader(cal)))
    web = WebServer(service, "0.0.0.0", 8080, calibration_source=keeper)
    web.start()
    log.warning(web.banner())                 # the URL and the PIN
    pipeline = FramePipeline(reader, web)     # readings go through web.handle ...
    source = KeptSource(open_source(spec), keeper)
    ... web.handle(Press(button))             # ... and so do the GPIO buttons
    web.stop()

Everything that reaches the service must go through :meth:`WebServer.handle` (or
hold ``WebServer.lock``): the page's buttons call the service from the server's
threads.  A new match started from the page replaces ``web.service`` (listeners
in ``web.on_new_service`` are told).
"""

from .calibration import CameraPort, FrameKeeper, KeptSource
from .guard import make_pin
from .server import WebServer

__all__ = ["CameraPort", "FrameKeeper", "KeptSource", "WebServer", "make_pin"]
