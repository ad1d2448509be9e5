"""The calibration view's routes: the camera frame, the grid over it, a fresh calibration."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .request import WebError, guarded, json_body

if TYPE_CHECKING:
    from .server import WebServer


class CameraApi:
    """``/api/calibration`` (GET: what to draw; POST: calibrate), ``/api/calibration/empty`` (POST: learn the
    bare board) and ``/api/camera.jpg``."""

    def __init__(self, web: WebServer) -> None:
        self.web = web

    def _frame(self) -> Any:
        if self.web.camera is None:
            raise WebError("no camera is connected to this referee", 503)
        image = self.web.camera.latest_frame()
        if image is None:
            raise WebError("the camera gives no picture yet", 503)
        return image

    async def view(self, request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(describe, self.web), headers={"Cache-Control": "no-store"})

    async def picture(self, request: Request) -> Response:
        from .calibration import jpeg

        data = await run_in_threadpool(jpeg, self._frame())
        return Response(data, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    async def calibrate(self, request: Request) -> Response:
        from .calibration import parse_corners

        body = await json_body(request)
        image = self._frame()
        try:
            corners = parse_corners(body.get("corners"), (image.shape[1], image.shape[0]))
        except ValueError as exc:
            raise WebError(str(exc)) from None
        guarded(self.web, request)
        await run_in_threadpool(_calibrate, self.web, image, corners)
        return JSONResponse({"ok": True, **await run_in_threadpool(describe, self.web)})


    async def learn_empty(self, request: Request) -> Response:
        """POST ``/api/calibration/empty``: the calibration in use learns the bare board from the latest frame."""
        image = self._frame()
        guarded(self.web, request)
        await run_in_threadpool(_learn_empty, self.web, image)
        return JSONResponse({"ok": True, **await run_in_threadpool(describe, self.web)})


def describe(web: WebServer) -> dict[str, Any]:
    """What the calibration view shows: is there a camera, a frame, a calibration, and its grid."""
    from .calibration import overlay

    if web.camera is None:
        return {"camera": False, "frame": None, "calibration": None, "text": "no camera is connected to this referee"}
    image = web.camera.latest_frame()
    cal = web.camera.calibration()
    size = None if image is None else [int(image.shape[1]), int(image.shape[0])]
    return {
        "camera": True,
        "frame": size,
        "calibration": overlay(cal) if cal is not None else None,
        "text": "calibrated" if cal is not None else "not calibrated yet",
    }


def _calibrate(web: WebServer, image: Any, corners: Any) -> None:
    from vision.errors import VisionError

    from .calibration import recalibrate

    try:
        cal = (web.calibrator or recalibrate)(image, corners)
    except VisionError as exc:
        raise WebError(f"calibration failed: {exc}", 422) from None
    assert web.camera is not None
    web.camera.apply(cal)
    web.live.refresh()


def _learn_empty(web: WebServer, image: Any) -> None:
    from vision.calibrate import learn_empty_board
    from vision.config import CalibrationConfig
    from vision.errors import VisionError

    assert web.camera is not None
    cal = web.camera.calibration()
    if cal is None:
        raise WebError("calibrate on the start position first, then clear the board and learn it bare", 409)
    try:
        learnt = learn_empty_board(CalibrationConfig(), cal, image)
    except VisionError as exc:
        raise WebError(f"the bare board was not learnt: {exc}", 422) from None
    web.camera.apply(learnt)
    web.live.refresh()
