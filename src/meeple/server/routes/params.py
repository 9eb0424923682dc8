"""What the API's routes share: the game id in a path, the seat token of a GET request, the
errors they document, and the hub they serve (``app.state.hub``, set by
:func:`meeple.server.app.create_app`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends, HTTPException, Path, Query
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from meeple.server.schemas import MAX_TOKEN, ErrorBody

if TYPE_CHECKING:
    from meeple.server.hub import Hub

GameIdPath = Annotated[str, Path(min_length=1, max_length=32)]

SEAT_BEARER = HTTPBearer(
    auto_error=False,
    scheme_name="seat token",
    description="A seat's token as `Authorization: Bearer TOKEN`: a header is in no URL, so "
    "in no access log and no `Referer`.",
)


async def seat_token(
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(SEAT_BEARER)],
    token: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=MAX_TOKEN,
            deprecated=True,
            description="The seat's token, for clients older than the `Authorization` header "
            "(a URL ends up in logs: prefer the header).",
        ),
    ] = None,
) -> str:
    """A GET request's seat token: ``Authorization: Bearer TOKEN``, else ``?token=``."""
    if bearer is not None:
        return bearer.credentials[: MAX_TOKEN + 1]  # longer is no token: 403
    if token is not None:
        return token
    raise HTTPException(
        401,
        "a seat's token is needed: send it as 'Authorization: Bearer TOKEN'",
        headers={"WWW-Authenticate": "Bearer"},
    )


SeatToken = Annotated[str, Depends(seat_token)]

ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "The token is not a seat's of this game"},
    404: {"model": ErrorBody, "description": "No such game"},
    429: {"model": ErrorBody, "description": "A limit was reached (the reason says which)"},
    409: {"model": ErrorBody, "description": "Stale state_id (the current one is included)"},
    413: {"model": ErrorBody, "description": "Request body too large"},
    422: {"description": "Malformed request, or an illegal action with the engine's reason"},
}


def hub_of(connection: HTTPConnection) -> Hub:
    """The hub of the app serving ``connection`` (a request or a WebSocket)."""
    hub: Hub = connection.app.state.hub
    return hub
