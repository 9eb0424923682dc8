"""The connection to the games database (SQLAlchemy 2.0: SQLite by default, PostgreSQL by
URL), and its tables made or brought up to date."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Engine

from meeple.server.store.rows import Base

DEFAULT_DATABASE_URL = "sqlite:///meeple.sqlite"


def normalise_url(url: str) -> str:
    """``url`` with PostgreSQL URLs sent to psycopg 3 (the driver meeple installs)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: one fsync per commit instead of several; synchronous=FULL keeps every commit durable
    # (a power cut too, not just a killed process); foreign keys are off in SQLite by default.
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


class Database:
    """The games database at ``url``; ``schema`` puts the tables in a PostgreSQL schema.

    The base of each job's store (:mod:`meeple.server.store`): they share its engine."""

    def __init__(self, url: str = DEFAULT_DATABASE_URL, schema: str | None = None) -> None:
        url = normalise_url(url)
        self.url = url
        self.schema = schema
        kwargs: dict[str, Any] = {}
        sqlite = url.startswith("sqlite")
        if sqlite:
            kwargs["connect_args"] = {"timeout": 30}
        engine = create_engine(url, **kwargs)
        if sqlite:
            event.listen(engine, "connect", _sqlite_pragmas)
        if schema is not None:
            engine = engine.execution_options(schema_translate_map={None: schema})
        self.engine: Engine = engine

    def create_tables(self) -> None:
        """Create missing tables, and add the columns later versions added to older ones."""
        Base.metadata.create_all(self.engine)
        self._add_missing_columns()
        with self.engine.begin() as c:  # and the indexes of the columns added
            for table in Base.metadata.sorted_tables:
                for index in table.indexes:
                    index.create(c, checkfirst=True)

    def _add_missing_columns(self) -> None:
        # A database made by an earlier meeple lacks the columns added since. Each is nullable,
        # so adding it keeps every stored game as it was (a full migration tool would be more
        # than these additive changes need).
        with self.engine.begin() as c:
            quote = c.dialect.identifier_preparer.quote
            for table in Base.metadata.sorted_tables:
                have = {col["name"] for col in inspect(c).get_columns(table.name, self.schema)}
                where = quote(table.name)
                if self.schema is not None:
                    where = f"{quote(self.schema)}.{where}"
                for col in table.columns:
                    if col.name not in have and col.nullable:
                        kind = col.type.compile(dialect=c.dialect)
                        c.execute(text(f"ALTER TABLE {where} ADD COLUMN {quote(col.name)} {kind}"))

    def drop_tables(self) -> None:
        Base.metadata.drop_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()
