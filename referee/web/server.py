"""The web server: uvicorn on a background thread, serving one referee service.

``WebServer(service, host, port, pin)`` then ``start()``; print ``banner()`` (the
URL and the PIN) on the console.  Observations should reach the service through
:meth:`WebServer.handle` (or under ``WebServer.lock``), because the page's
buttons call the service from the server's threads.
"""

from __future__ import annotations

import asyncio
import logging
import re
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core import Mode, Outcome, Press, Seen, Settings
from ..service import RefereeService
from .analysis import Analyst, gnubg_evaluator
from .calibration import CameraPort
from .guard import PinGuard, make_pin
from .live import LiveState
from .request import WebError

log = logging.getLogger("bgref.web")

DeviceCheck = Callable[[], tuple[bool, str]]
DOWNLOADABLE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}\.(mat|sgf)$")
STARTUP_SECONDS = 10.0


class Hub:
    """Hands snapshots from any thread to the event loop's subscribers (server-sent events)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queues: set[asyncio.Queue[dict[str, Any] | None]] = set()

    def publish(self, snapshot: dict[str, Any]) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._fan_out, snapshot)
            except RuntimeError:
                pass  # the loop is closing: nobody is listening any more

    def _fan_out(self, snapshot: dict[str, Any] | None) -> None:
        for queue in self.queues:
            if queue.qsize() > 50:
                continue  # a stalled client: it will resynchronise from the next snapshot it reads
            queue.put_nowait(snapshot)

    def subscribe(self) -> asyncio.Queue[dict[str, Any] | None]:
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[dict[str, Any] | None]) -> None:
        self.queues.discard(queue)

    def close(self) -> None:
        """End every stream (None tells a subscriber to stop)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._fan_out, None)
            except RuntimeError:
                pass


class WebServer:
    """The live page of one referee service, on ``host:port``."""

    def __init__(
        self,
        service: RefereeService,
        host: str = "0.0.0.0",
        port: int = 8080,
        pin: str | None = None,
        calibration_source: CameraPort | None = None,
        *,
        devices: dict[str, DeviceCheck] | None = None,
        analysis: bool = True,
        new_folder: Callable[[Settings], Path] | None = None,
        calibrator: Callable[..., Any] | None = None,
    ) -> None:
        self.host, self.port = host, port
        self.pin = pin or make_pin()
        self.guard = PinGuard(self.pin)
        self.camera = calibration_source
        self.calibrator = calibrator  # (frame, corners or None) -> Calibration; default vision's
        self.lock = threading.RLock()
        self.hub = Hub()
        self.device_checks = devices or {}
        self.new_folder = new_folder or (lambda settings: sibling_folder(settings, self.service.folder.parent))
        self.on_new_service: list[Callable[[RefereeService], None]] = []
        self.analysis_wanted = analysis
        self.analyst = Analyst(gnubg_evaluator() if analysis else None, self._analysis_ready)
        self.live = LiveState(service, self.analyst, self.devices, self.lock)
        self.live.publish = self.hub.publish
        self._server: Any = None
        self._thread: threading.Thread | None = None

    # --- the referee side ------------------------------------------------------------------

    @property
    def service(self) -> RefereeService:
        return self.live.service

    def handle(self, item: Seen | Press) -> Outcome:
        """Hand one reading or button press to the service (thread-safe)."""
        with self.lock:
            if isinstance(item, Seen):
                self.live.saw(item)
            return self.service.handle(item)

    def set_mode(self, mode: Mode) -> Outcome:
        """Press the mode button until the referee is in ``mode``."""
        with self.lock:
            outcome = Outcome()
            for _ in range(len(Mode)):
                if self.service.settings.mode is mode:
                    break
                outcome = self.service.handle(Press("mode"))
            return outcome

    def new_match(self, settings: Settings) -> RefereeService:
        """Start another match in a new folder; the match in play is written and closed."""
        with self.lock:
            old = self.service
            try:
                service = RefereeService(settings, self.new_folder(settings), old.signals)
            except OSError as exc:
                raise WebError(f"a new match cannot be started: {exc.strerror or exc}", 500) from None
            old.write_records()
            old.close()
            self.live.follow(service)
            for listener in self.on_new_service:
                listener(service)
            log.info("new match: %s vs %s in %s", *settings.players, service.folder)
            return service

    def download(self, name: str) -> Path:
        """The match file ``name`` (``.mat`` or ``.sgf``), written afresh; never outside the match folder."""
        if not DOWNLOADABLE.match(name):
            raise WebError("only the match's .mat and .sgf files can be downloaded", 404)
        with self.lock:
            folder = self.service.folder.resolve()
            self.service.write_records()
        path = (folder / name).resolve()
        if path.parent != folder or not path.is_file():
            raise WebError(f"{name} is not in the match folder", 404)
        return path

    def devices(self, service: RefereeService) -> dict[str, dict[str, Any]]:
        """Each device's state for the page: camera, LEDs, analysis."""
        out = {"camera": self._camera_state(), "leds": self._led_state(service)}
        for name, check in self.device_checks.items():
            ok, text = check()
            out[name] = {"ok": ok, "text": text}
        out.setdefault("analysis", self._analysis_state())
        return out

    def _analysis_state(self) -> dict[str, Any]:
        if self.analyst.available:
            return {"ok": True, "text": "GNU Backgammon analysis"}
        if not self.analysis_wanted:
            return {"ok": True, "text": "GNU Backgammon analysis is turned off"}
        return {"ok": False, "text": "no GNU Backgammon analysis (the gnubg package is not installed here)"}

    def _camera_state(self) -> dict[str, Any]:
        if self.camera is None:
            return {"ok": False, "text": "no camera: the board shown is the match as recorded"}
        if self.camera.latest_frame() is None:
            return {"ok": False, "text": "the camera gives no picture"}
        return {"ok": True, "text": "camera on"}

    def _led_state(self, service: RefereeService) -> dict[str, Any]:
        if service.signals is None:
            return {"ok": False, "text": "no LED controller: verdicts are shown here only"}
        return {"ok": True, "text": "LED signals on"}

    def _analysis_ready(self) -> None:
        self.live.refresh()

    # --- serving --------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else "[::1]" if self.host == "::" else self.host
        return f"http://{host}:{self.port}/"

    def banner(self) -> str:
        """The line to print: where the page is and the PIN for changes."""
        urls = [self.url] if self.host not in ("0.0.0.0", "", "::") else lan_urls(self.port)
        return f"web page: {' or '.join(urls)}  (PIN for changes: {self.pin})"

    def start(self) -> None:
        """Serve on a background thread; returns once the server listens (OSError if it cannot)."""
        try:
            import uvicorn

            from .app import build_app
        except ImportError as exc:
            raise OSError(f"the web page needs starlette and uvicorn ({exc.name} is not installed)") from None

        sock = socket.socket(socket.AF_INET6 if ":" in self.host else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError as exc:
            sock.close()
            raise OSError(f"cannot serve the web page on {self.host}:{self.port}: {exc.strerror or exc}") from None
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(build_app(self), log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=2)
        self._server = uvicorn.Server(config)
        started = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(sock, started), name="bgref-web", daemon=True)
        self._thread.start()
        if not started.wait(STARTUP_SECONDS):
            raise OSError("the web server did not start")

    def _serve(self, sock: socket.socket, started: threading.Event) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self.hub.loop = loop

        async def serve() -> None:
            task = asyncio.ensure_future(self._server.serve(sockets=[sock]))
            while not self._server.started and not task.done():
                await asyncio.sleep(0.01)
            started.set()
            await task

        try:
            loop.run_until_complete(serve())
        finally:
            started.set()
            loop.close()

    def stop(self) -> None:
        """Close the streams, stop the server and wait for its thread."""
        if self._server is None:
            return
        self.hub.close()
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.analyst.close()
        self._server = None


def sibling_folder(settings: Settings, parent: Path | None = None, clock: Callable[[], float] = time.time) -> Path:
    """A new match folder named by the date and the players (beside the default one)."""
    base = parent or Path.home() / "bgref-matches"
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(clock()))
    names = "-".join(re.sub(r"[^A-Za-z0-9]+", "_", n).strip("_") or "player" for n in settings.players)
    folder = base / f"{stamp}-{names}"
    n = 2
    while folder.exists():
        folder = base / f"{stamp}-{names}-{n}"
        n += 1
    folder.mkdir(parents=True)
    return folder


def lan_urls(port: int) -> list[str]:
    """The page's address on each of this machine's network addresses (no traffic sent)."""
    addresses = {"127.0.0.1"}
    try:
        addresses |= {a for a in socket.gethostbyname_ex(socket.gethostname())[2] if not a.startswith("127.")}
    except OSError:
        pass
    return [f"http://{a}:{port}/" for a in sorted(addresses, key=lambda a: a.startswith("127."))]
