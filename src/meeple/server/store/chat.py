"""A game's chat: what people said at the table, stored with the game."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from meeple.server.store.database import Database
from meeple.server.store.rows import REMOVED, ChatRow, SeatRow


class ChatStore(Database):
    """Chat messages stored and read back (those of a person removed from the chat hidden)."""

    def add_chat(self, game: str, seat: int, name: str, text: str) -> dict[str, Any]:
        """Store a chat message; returns it as the API shows it."""
        now = dt.datetime.now(dt.UTC)
        with Session(self.engine) as s, s.begin():
            row = ChatRow(game=game, seat=seat, name=name, text=text, created=now)
            s.add(row)
            s.flush()
            return _chat(row)

    def chat(self, game: str, after: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        """The game's chat messages with an id above ``after``, oldest first (``limit`` at
        most); ``after=-1``: the newest ``limit``. Those of a person the host removed from the
        chat are left out (kept, and shown again if the host lets them back)."""
        removed = select(SeatRow.seat).where(SeatRow.game == game, SeatRow.chat == REMOVED)
        with Session(self.engine) as s:
            q = select(ChatRow).where(ChatRow.game == game, ChatRow.seat.not_in(removed))
            if after < 0:
                rows = list(s.scalars(q.order_by(ChatRow.id.desc()).limit(limit)))[::-1]
            else:
                rows = list(
                    s.scalars(q.where(ChatRow.id > after).order_by(ChatRow.id).limit(limit))
                )
            return [_chat(r) for r in rows]

    def chat_count(self, game: str) -> int:
        with Session(self.engine) as s:
            return int(s.scalar(select(func.count()).where(ChatRow.game == game)) or 0)


def _chat(row: ChatRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "seat": row.seat,
        "name": row.name,
        "text": row.text,
        "at": row.created.isoformat(),
    }
