"""Reading the text files a user names: edition files, save files, positions, bot parameters.

Every reader of such a file goes through :func:`read_text`, so each says the same thing for
the same mistake (a folder, a missing file, a file that is not UTF-8 text such as a
spreadsheet or a Latin-1 export) and none of them lets a ``UnicodeDecodeError`` through as a
traceback: the caller wraps :class:`UnreadableFile`'s one-line reason in its own error, which
names the file (and, where it has one, the field).
"""

from __future__ import annotations

from pathlib import Path


class UnreadableFile(Exception):
    """A file that could not be read as text; ``reason`` is one line ("cannot read: Is a
    directory", "not UTF-8 text: byte 0xff at offset 0")."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def read_text(path: str | Path) -> str:
    """The UTF-8 text of ``path`` (a leading byte-order mark dropped, as editors write one).

    Raises :class:`UnreadableFile` for a file that cannot be opened or read, and for bytes
    that are not UTF-8: every file meeple reads is UTF-8 (TOML requires it; JSON's standard
    does), so another encoding is the user's file, not ours, to convert.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise UnreadableFile(f"cannot read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = data[exc.start : exc.start + 1].hex()
        raise UnreadableFile(
            f"not UTF-8 text: byte 0x{bad} at offset {exc.start} (save the file as UTF-8)"
        ) from None
