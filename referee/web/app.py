"""The Starlette application: the page, its JSON API and its live stream.

Every answer to a bad request is one JSON ``{"error": "..."}`` with a status;
no traceback ever reaches the page.  Changes need the PIN in the ``X-PIN``
header and a JSON body (which a foreign page cannot send without asking).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..core import Mode, Press
from .guard import PinError, settings_from_form
from .camera_api import CameraApi
from .request import WebError, guarded, json_body

if TYPE_CHECKING:
    from .server import WebServer

log = logging.getLogger("bgref.web")

STATIC = Path(__file__).resolve().parent.parent / "static"
KEEPALIVE_SECONDS = 15.0
BUTTONS = ("accept", "correct", "take", "drop")
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'"),
]


class SecurityHeaders:
    """Adds the page's security headers to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def error(text: str, status: int) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


def build_app(web: WebServer) -> Starlette:
    """The application serving ``web``'s page."""
    api, camera = Api(web), CameraApi(web)
    routes = [
        Route("/", api.index),
        Route("/api/state", api.state),
        Route("/api/events", api.events),
        Route("/api/unlock", api.unlock, methods=["POST"]),
        Route("/api/press", api.press, methods=["POST"]),
        Route("/api/mode", api.mode, methods=["POST"]),
        Route("/api/match", api.new_match, methods=["POST"]),
        Route("/api/download/{name}", api.download),
        Route("/api/calibration", camera.view),
        Route("/api/calibration", camera.calibrate, methods=["POST"]),
        Route("/api/calibration/empty", camera.learn_empty, methods=["POST"]),
        Route("/api/camera.jpg", camera.picture),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {WebError: _web_error, PinError: _web_error, HTTPException: _http_error, Exception: _crash}
    return Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)], exception_handlers=handlers)


class Api:
    """The page, its state, its live stream and the changes to the match."""

    def __init__(self, web: WebServer) -> None:
        self.web = web

    async def index(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def state(self, request: Request) -> Response:
        return JSONResponse(self.web.live.snapshot(), headers={"Cache-Control": "no-store"})

    async def events(self, request: Request) -> Response:
        queue = self.web.hub.subscribe()
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(_stream(self.web, queue), media_type="text/event-stream", headers=headers)

    async def unlock(self, request: Request) -> Response:
        await json_body(request)
        guarded(self.web, request)
        return JSONResponse({"ok": True})

    async def press(self, request: Request) -> Response:
        button = (await json_body(request)).get("button")
        if button not in BUTTONS:
            raise WebError(f"button must be one of {', '.join(BUTTONS)}")
        guarded(self.web, request)
        outcome = await run_in_threadpool(self.web.handle, Press(button))
        return JSONResponse({"ok": True, "notes": [{"text": n.text, "level": n.level} for n in outcome.notes]})

    async def mode(self, request: Request) -> Response:
        value = (await json_body(request)).get("mode")
        if value not in [m.value for m in Mode]:
            raise WebError(f"mode must be one of {', '.join(m.value for m in Mode)}")
        guarded(self.web, request)
        await run_in_threadpool(self.web.set_mode, Mode(value))
        return JSONResponse({"ok": True, "mode": value})

    async def new_match(self, request: Request) -> Response:
        body = await json_body(request)
        try:
            settings = settings_from_form(body, self.web.service.settings)
        except ValueError as exc:
            raise WebError(str(exc)) from None
        guarded(self.web, request)
        service = await run_in_threadpool(self.web.new_match, settings)
        return JSONResponse({"ok": True, "folder": service.folder.name})

    async def download(self, request: Request) -> Response:
        name = request.path_params["name"]
        path = await run_in_threadpool(self.web.download, name)
        media = "application/x-sgf" if name.endswith(".sgf") else "text/plain"
        return FileResponse(path, media_type=f"{media}; charset=utf-8", filename=name, headers={"Cache-Control": "no-store"})


async def _stream(web: WebServer, queue: asyncio.Queue[dict[str, Any] | None]) -> AsyncIterator[str]:
    """The snapshot now, then each new one (only the latest if several are waiting)."""
    try:
        yield _event(web.live.snapshot())
        while True:
            try:
                snapshot = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            while snapshot is not None and not queue.empty():
                snapshot = queue.get_nowait()
            if snapshot is None:
                return
            yield _event(snapshot)
    finally:
        web.hub.unsubscribe(queue)


def _event(snapshot: dict[str, Any]) -> str:
    return f"event: state\nid: {snapshot.get('version', 0)}\ndata: {json.dumps(snapshot, separators=(',', ':'))}\n\n"


async def _web_error(request: Request, exc: Exception) -> Response:
    return error(str(exc), getattr(exc, "status", 400))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    text = {404: "no such page", 405: "this address does not take that method"}.get(exc.status_code, exc.detail)
    return error(str(text), exc.status_code)


async def _crash(request: Request, exc: Exception) -> Response:
    log.error("web request %s %s failed", request.method, request.url.path, exc_info=exc)
    return error("the referee could not do that (see the service log)", 500)
