"""The web server: ``meeple serve`` (FastAPI), durable storage (SQLAlchemy), bots server-side."""
