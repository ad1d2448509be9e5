"""What every route shares: the error a request ends in, its JSON body and the PIN check.

Kept apart from ``app`` and ``server`` so that both, and ``camera_api``, import it
without importing each other.  Starlette is needed only to serve, not to import this.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.requests import Request

    from .server import WebServer

MAX_BODY = 16 * 1024


class WebError(Exception):
    """A request that cannot be carried out: ``status`` and a message for the page."""

    def __init__(self, text: str, status: int = 400) -> None:
        super().__init__(text)
        self.status = status


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object; WebError for anything else."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise WebError("send JSON (Content-Type: application/json)", 415)
    body = await request.body()
    if len(body) > MAX_BODY:
        raise WebError("the request is too large", 413)
    try:
        data = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise WebError("the request is not valid JSON", 400) from None
    if not isinstance(data, dict):
        raise WebError("the request must be a JSON object", 400)
    return data


def guarded(web: WebServer, request: Request) -> None:
    """Raise PinError unless the request carries the right PIN."""
    client = request.client.host if request.client else "?"
    web.guard.check(request.headers.get("x-pin"), client)
