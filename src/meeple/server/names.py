"""Names at the table: what a person or a bot may be called in a game (docs/SERVER.md,
"Names").

A name is what the others read on the board, in the players list and in the log, so it must
show who it is and be nobody else's in the game:

- **Normalised**: NFKC (full-width ``ＡＮＮ`` is ``ANN``, the ligature ``ﬁ`` is ``fi``, a
  no-break space is a space), runs of spaces made one, trimmed; at most 40 characters after.
- **Only what shows** (:func:`clean_name`): no control, format, surrogate, private-use or
  unassigned code point, no line or paragraph separator, and none of the characters that draw
  nothing though Unicode files them as letters, symbols or marks (:data:`BLANK`: the Hangul
  fillers, the blank Braille pattern, variation selectors after a letter). Two format
  characters are kept where they change what is drawn, as IDNA2008 (RFC 5892, appendix A) and
  emoji sequences (UTS #51) use them: a zero-width non-joiner after a virama or between two
  letters of a joining script (Persian ``می‌خواهم``), a zero-width joiner after a virama or
  between two emoji. At least one letter, digit or symbol.
- **Not reserved** (:data:`RESERVED_NAME`): ``Player 2`` and ``Seat 2`` (what the log and an
  open seat say), ``Standard bot 3`` (a bot's name before issue 38), ``Bot``, and anything
  with ``(bot)``: the mark of a bot's name.
- **Unique in its game** (:func:`name_key`), compared casefolded after normalisation without
  the joiners, variation selectors and a bot's mark: ``Ann``, ``ANN``, ``ＡＮＮ`` and the bot
  ``Ann (bot)`` are one name.

Bots are named ``NAME (bot)`` (issue 38: "Ada (bot)", not "Standard bot 3", so the board's
owner labels and the players list tell bots apart): ``NAME`` is the API client's own for its
bot, checked as a person's name is, else picked by :func:`pick_bot_names` from
:data:`BOT_NAMES` in an order drawn from the game's seed, the first whose name and initial no
one at the table has. The same seed and seats give the same names.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from meeple.kernel.rng import Rng, derive_seed

MAX_NAME = 40
"""The most characters a name has, as sent and once normalised."""

INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format, surrogate, private-use, unassigned; line and paragraph separators."""

BLANK = frozenset(
    "\u034f"  # combining grapheme joiner
    "\u115f\u1160\u3164\uffa0"  # the Hangul fillers (NFKC makes U+3164 and U+FFA0 U+1160)
    "\u17b4\u17b5"  # Khmer inherent vowels, drawn as nothing
    "\u180b\u180c\u180d\u180f"  # Mongolian free variation selectors
    "\u2800"  # the blank Braille pattern
)
"""Characters Unicode files as letters, marks or symbols that draw nothing (among its
Default_Ignorable_Code_Point, and the blank Braille pattern)."""

LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
"""What ``str.splitlines`` breaks a line at: named as such in a refusal."""

DIRECTION_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
"""The text-direction embeddings, overrides, isolates and marks: named as such in a refusal
(they would reorder the text around the name)."""

ZWNJ, ZWJ = "\u200c", "\u200d"
VIRAMA = 9
"""The canonical combining class of a virama (``unicodedata.combining``)."""

EMOJI_PRESENTATION = frozenset("\ufe0e\ufe0f")
"""Variation selectors 15 and 16 (text or emoji presentation): kept after a symbol."""

_JOINING_SCRIPTS = (
    (0x0600, 0x08FF),  # Arabic, Syriac, Arabic Supplement, Thaana, N'Ko, Mandaic, Arabic Ext-A
    (0x1800, 0x18AF),  # Mongolian
    (0xFB50, 0xFDFF),  # Arabic Presentation Forms-A
    (0xFE70, 0xFEFF),  # Arabic Presentation Forms-B
)
"""Scripts whose letters join (a zero-width non-joiner between two of them stops a join)."""

RESERVED_NAME = re.compile(
    r"(?i)^(player\s*\d+|seat\s*\d+|bot(\s*\d+)?|[^\W\d_]+\s+bot(\s*\d+)?)$|\(\s*bot\s*\)"
)
"""Names a person or an API client's bot may not take: seat numbers, bots' names."""

BOT_MARK = " (bot)"

BOT_NAMES = (
    "Ada", "Bea", "Cy", "Dot", "Ezra", "Fay", "Gil", "Hal", "Ivy", "Jo", "Kit", "Lou", "Max",
    "Nell", "Otto", "Pia", "Quin", "Rex", "Sol", "Tess", "Uma", "Vic", "Wren", "Xia", "Yuri",
    "Zoe",
)  # fmt: skip
"""Bots' names: short (the board writes an owner's name on a deed), each with its own initial
(a seat's token shows its initial), none of the lobby's default names for people."""

BOT_NAMES_SALT = 0x626F74
"""The salt of the stream that orders :data:`BOT_NAMES` for a game (``derive_seed``), apart
from the bots' own (salted with their seat number, 1 to 8)."""


def clean_name(name: str) -> str:
    """``name`` normalised (NFKC, one space between words, trimmed); ``ValueError`` with the
    reason if it holds a character that does not show (module docstring), has no letter,
    digit or symbol, or is over 40 characters once normalised."""
    text = unicodedata.normalize("NFKC", name)
    for i, ch in enumerate(text):
        if not _shows(text, i):
            if ch in LINE_BREAKS:
                raise ValueError(f"a name is one line: no line break ({_code(ch)})")
            if unicodedata.category(ch) == "Cc":
                raise ValueError(f"a name may not contain the control character {_code(ch)}")
            if ch in DIRECTION_CONTROLS:
                raise ValueError(
                    f"a name may not contain the text-direction control {_code(ch)}: it "
                    "would reorder the text around the name"
                )
            raise ValueError(f"a name may not contain the invisible character {_code(ch)}")
    clean = " ".join(text.split())
    if not any(unicodedata.category(ch)[0] in "LNS" for ch in clean):
        raise ValueError("a name needs at least one letter, digit or symbol")
    if len(clean) > MAX_NAME:
        raise ValueError(f"a name is at most {MAX_NAME} characters (once normalised)")
    return clean


def _code(ch: str) -> str:
    """A character as its code point and Unicode name: ``U+200B ZERO WIDTH SPACE``."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def _shows(text: str, i: int) -> bool:
    """Whether ``text[i]`` is drawn, or changes what is drawn (module docstring)."""
    ch = text[i]
    if ch == " ":
        return True
    before = text[i - 1] if i > 0 else ""
    if ch in EMOJI_PRESENTATION:
        return bool(before) and unicodedata.category(before)[0] == "S"
    if ch in (ZWNJ, ZWJ):
        after = text[i + 1] if i + 1 < len(text) else ""
        if before and unicodedata.combining(before) == VIRAMA:
            return True
        if ch == ZWNJ:
            return _joining_letter(before) and _joining_letter(after)
        return _emoji(_base_before(text, i)) and _emoji(after)
    if ch in BLANK or 0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF:
        return False  # blank, or a variation selector (1-256) not after a symbol
    return unicodedata.category(ch) not in INVISIBLE_CATEGORIES


def _joining_letter(ch: str) -> bool:
    return (
        bool(ch)
        and unicodedata.category(ch)[0] == "L"
        and any(lo <= ord(ch) <= hi for lo, hi in _JOINING_SCRIPTS)
    )


def _base_before(text: str, i: int) -> str:
    """The character a joiner at ``i`` follows, past variation selectors and emoji modifiers
    (skin tones): ``🏳️‍🌈`` joins the flag."""
    j = i - 1
    while j >= 0 and (text[j] in EMOJI_PRESENTATION or 0x1F3FB <= ord(text[j]) <= 0x1F3FF):
        j -= 1
    return text[j] if j >= 0 else ""


def _emoji(ch: str) -> bool:
    return bool(ch) and unicodedata.category(ch) == "So"


def name_key(name: str) -> str:
    """What two names are compared by: casefolded after NFKC, without a bot's mark, the
    joiners and the variation selectors (NFKC again, as Unicode's NFKC_Casefold does)."""
    text = unicodedata.normalize("NFKC", name).removesuffix(BOT_MARK.strip()).strip()
    text = "".join(ch for ch in text if ch not in (ZWJ, ZWNJ) and ch not in EMOJI_PRESENTATION)
    return unicodedata.normalize("NFKC", " ".join(text.split()).casefold())


def given_name(name: str, taken: Iterable[str]) -> str:
    """A name a client sends (a person's, or its bot's before the mark), clean; ``ValueError``
    with the reason if it does not show, is reserved, or is one of ``taken`` (by
    :func:`name_key`)."""
    clean = clean_name(name)
    if RESERVED_NAME.search(clean):
        raise ValueError(f"{clean!r} is reserved for seat numbers and bots: pick another name")
    key = name_key(clean)
    if any(name_key(t) == key for t in taken):
        raise ValueError(f"{clean!r} is taken in this game: pick another name")
    return clean


def pick_bot_names(seed: int, taken: Sequence[str], count: int) -> list[str]:
    """``count`` names for bots (``"Ada (bot)"``) in a game of ``seed`` whose seats already
    have the names ``taken``: :data:`BOT_NAMES` in the seed's order, each one whose name and
    initial nobody at the table has, else (all initials in use) whose name nobody has."""
    order = list(BOT_NAMES)
    Rng(derive_seed(seed, BOT_NAMES_SALT)).shuffle(order)
    keys = {name_key(t) for t in taken}
    initials = {k[:1] for k in keys}
    picked: list[str] = []
    for _ in range(count):
        free = [n for n in order if name_key(n) not in keys]
        name = next((n for n in free if name_key(n)[:1] not in initials), free[0])
        keys.add(name_key(name))
        initials.add(name_key(name)[:1])
        picked.append(name + BOT_MARK)
    return picked


def seat_names(seats: Sequence[dict[str, Any]], seed: int) -> list[str]:
    """The name of each seat of a new game, from its spec (:class:`meeple.server.schemas.
    SeatSpec` dumped): a person's and an API client's bot's own name checked by
    :func:`given_name` against the others given (a bot's gets the mark), an open seat's
    ``Seat N``, and :func:`pick_bot_names` for the bots left. ``ValueError`` with the reason."""
    given: dict[int, str] = {}
    for i, spec in enumerate(seats):
        if spec["type"] == "human" or (spec["type"] == "bot" and spec.get("name")):
            own = given_name(spec["name"], given.values())
            given[i] = own + BOT_MARK if spec["type"] == "bot" else own
    unnamed = [i for i, spec in enumerate(seats) if spec["type"] == "bot" and i not in given]
    picked = pick_bot_names(seed, list(given.values()), len(unnamed))
    given.update(zip(unnamed, picked, strict=True))
    return [given.get(i, f"Seat {i + 1}") for i in range(len(seats))]
