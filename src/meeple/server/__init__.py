"""The web server: ``meeple serve`` (FastAPI), durable storage (SQLAlchemy), bots server-side.

It needs ``meeple[server]``: without it, importing any part of it raises
:class:`meeple.extras.MissingExtra`, which says so.
"""

from meeple.extras import need

need("server", "meeple.server (the web app)")
