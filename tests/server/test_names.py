"""Names at the table (meeple.server.names; docs/SERVER.md, "Names"): normalised, nothing
invisible, reserved and unique rules for every name a client sends (a bot's too), and bots'
own short names, "Ada (bot)", drawn from the game's seed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server.names import (
    BOT_MARK,
    BOT_NAMES,
    clean_name,
    given_name,
    name_key,
    pick_bot_names,
    seat_names,
)

ANN = {"type": "human", "name": "Ann"}


def create(client: TestClient, seats: list[dict[str, Any]], seed: int = 4) -> Any:
    return client.post("/api/games", json={"game": "classic", "seats": seats, "seed": seed})


# ---- what a name may hold ----


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("Ann\u200b", "U+200B ZERO WIDTH SPACE"),
        ("\u200bAnn", "U+200B ZERO WIDTH SPACE"),
        ("An\u200dn", "U+200D ZERO WIDTH JOINER"),  # between two Latin letters: draws nothing
        ("An\u200cn", "U+200C ZERO WIDTH NON-JOINER"),
        ("Ann\u2060", "U+2060 WORD JOINER"),
        ("Ann\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("An\u00adn", "U+00AD SOFT HYPHEN"),
        ("Ann\u180e", "U+180E MONGOLIAN VOWEL SEPARATOR"),
        ("Ann\u3164", "U+1160 HANGUL JUNGSEONG FILLER"),  # (NFKC makes U+3164 U+1160)
        ("\u2800", "U+2800 BRAILLE PATTERN BLANK"),
        ("Ann\u034f", "U+034F COMBINING GRAPHEME JOINER"),
        ("Ann\ufe0f", "U+FE0F VARIATION SELECTOR-16"),  # after a letter: draws nothing
        ("Ann\U000e0100", "U+E0100 VARIATION SELECTOR-17"),
        ("Ann\U000e0041", "U+E0041 TAG LATIN CAPITAL LETTER A"),
        ("Ann\ue000", "U+E000"),  # private use
        ("Ann\U0010ffff", "U+10FFFF"),  # unassigned
        ("Ann\u200e", "text-direction control"),
        ("Ann\u2029", "no line break"),
        ("Ann\x85", "no line break"),
        ("Ann\x1b[31m", "control character U+001B"),
        ("...", "at least one letter, digit or symbol"),
        ("\u0301\u0301", "at least one letter, digit or symbol"),
        ("\ufdfa\ufdfa\ufdfa", "at most 40 characters"),  # NFKC makes each 18 characters
    ],
)
def test_names_that_do_not_show_are_refused(name: str, reason: str) -> None:
    with pytest.raises(ValueError, match=re.escape(reason)):
        clean_name(name)


def test_names_are_normalised() -> None:
    assert clean_name("ＡＮＮ") == "ANN"  # full-width
    assert clean_name("ﬁona") == "fiona"  # a ligature
    assert clean_name("  Ann\u00a0\u3000 Lee  ") == "Ann Lee"  # no-break and wide spaces
    assert clean_name("Zoe\u0308") == "Zoë"  # composed


@pytest.mark.parametrize(
    "name",
    [
        "Zoë", "张伟", "محمد", "नमस्ते", "Ann-Marie O'Neil", "José", "😀", "❤️",
        "می\u200cخواهم",  # ZWNJ between two Arabic-script letters (Persian)
        "क्\u200dष",  # ZWJ after a virama (Devanagari)
        "👩\u200d👩\u200d👧 family",  # ZWJ between emoji
        "🏳\ufe0f\u200d🌈",  # the rainbow flag: a joiner after a variation selector
        "👍🏽",  # a skin tone
    ],
)  # fmt: skip
def test_names_in_any_script_and_emoji_are_kept(name: str) -> None:
    assert clean_name(name) == name


def test_names_collide_however_they_are_written() -> None:
    assert name_key("Ann") == name_key("ANN") == name_key("ＡＮＮ") == name_key(" ann ")
    assert name_key("Ann") == name_key("Ann (bot)")  # a bot's mark is no difference
    assert name_key("Straße") == name_key("STRASSE")  # casefolded, not lowercased
    assert name_key("❤") == name_key("❤️")
    assert name_key("Ann") != name_key("Anne")
    for name in ("ＡＮＮ", "ann", "ANN "):
        with pytest.raises(ValueError, match="taken"):
            given_name(name, ["Ann"])
    with pytest.raises(ValueError, match="taken"):
        given_name("Ada", ["Ada (bot)"])


@pytest.mark.parametrize(
    "name",
    [
        "Player 1", "player1", "PLAYER 12", "Ｐｌａｙｅｒ 2", "Seat 3", "Bot", "bot 2",
        "Standard bot 3", "random BOT", "Ada (bot)", "Ada(bot)", "(Bot) Ada", "Ada ( bot )",
    ],
)  # fmt: skip
def test_reserved_names(name: str) -> None:
    with pytest.raises(ValueError, match="reserved"):
        given_name(name, [])


def test_names_like_reserved_ones_are_free() -> None:
    for name in ("Robot Rick", "Bottle", "Playerone", "Seats", "Ada bot-maker"):
        assert given_name(name, []) == name


# ---- bots' names ----


def test_bot_names_are_short_distinct_and_drawn_from_the_seed() -> None:
    assert len({n[0] for n in BOT_NAMES}) == len(BOT_NAMES)  # each its own initial
    assert all(len(n) <= 4 for n in BOT_NAMES)
    first = pick_bot_names(7, ["Ann"], 5)
    assert first == pick_bot_names(7, ["Ann"], 5)  # the same seed, the same names
    assert all(n.endswith(BOT_MARK) for n in first)
    assert len({n[0] for n in [*first, "Ann"]}) == 6  # nobody's initial twice
    drawn = {tuple(pick_bot_names(seed, [], 3)) for seed in range(20)}
    assert len(drawn) > 10  # the seed chooses


def test_bot_names_avoid_the_names_and_initials_at_the_table() -> None:
    people = [n for n in BOT_NAMES if n != "Zoe"]  # every name but one is a person's
    (picked,) = pick_bot_names(1, people, 1)
    assert picked == "Zoe (bot)"
    # With every initial in use, a name nobody has.
    picked2 = pick_bot_names(1, [*people, "Zed"], 1)
    assert name_key(picked2[0]) not in {name_key(p) for p in people}


def test_seat_names_of_a_new_game() -> None:
    seats: list[dict[str, Any]] = [
        {"type": "human", "name": "Ann"},
        {"type": "bot", "bot": "standard", "name": None},
        {"type": "open"},
        {"type": "bot", "bot": "random", "name": "Rob"},
    ]
    names = seat_names(seats, 3)
    assert names[0] == "Ann" and names[2] == "Seat 3" and names[3] == "Rob (bot)"
    assert names[1].endswith(BOT_MARK) and names[1][0] not in "AR"
    assert seat_names(seats, 3) == names


# ---- through the API ----


@pytest.mark.parametrize(
    "spoof", ["Ann\u200b", "ＡＮＮ", "ann", "A\u200dnn", "Ann\ufe0f", "\u2800Ann", "Ann\u00ad"]
)
def test_a_second_ann_is_impossible(client: TestClient, spoof: str) -> None:
    """Issue 39: zero-width and other invisible characters let a second "Ann" in."""
    r = create(client, [ANN, {"type": "human", "name": spoof}])
    assert r.status_code == 422, r.text
    assert "taken" in r.text or "invisible" in r.text, r.text
    made = create(client, [ANN, {"type": "open"}]).json()
    r = client.post(
        f"/api/games/{made['id']}/join", json={"code": made["invite"], "seat": 1, "name": spoof}
    )
    assert r.status_code == 422, r.text
    r = create(client, [ANN, {"type": "bot", "bot": "random", "name": spoof}])
    assert r.status_code == 422, r.text


def test_an_invisible_character_is_named_in_the_answer(client: TestClient) -> None:
    r = create(client, [ANN, {"type": "human", "name": "Bob\u200b"}])
    assert r.status_code == 422
    (problem,) = r.json()["detail"]
    assert problem["loc"][:4] == ["body", "seats", 1, "human"]
    assert "invisible character U+200B ZERO WIDTH SPACE" in problem["msg"]


@pytest.mark.parametrize(
    ("name", "why"),
    [("Player 1", "reserved"), ("Standard bot 3", "reserved"), ("Ann", "taken"),
     ("Rob (bot)", "reserved"), ("   ", "at least one letter")],
)  # fmt: skip
def test_an_api_clients_bot_names_follow_the_rules(client: TestClient, name: str, why: str) -> None:
    """Issue 39: bot names from API clients skipped the reserved and unique rules."""
    r = create(client, [ANN, {"type": "bot", "bot": "random", "name": name}])
    assert r.status_code == 422 and why in r.text, r.text
    assert client.get("/api/games").json() == []  # nothing was made


def test_two_bots_may_not_share_a_name(client: TestClient) -> None:
    bot = {"type": "bot", "bot": "random", "name": "Rob"}
    r = create(client, [ANN, bot, {**bot, "name": "ROB"}])
    assert r.status_code == 422 and "taken" in r.text


def test_bots_are_named_by_the_seed(client: TestClient) -> None:
    """Bots get short names of their own, the same for the same seed and seats: a client's
    name for its bot gets the mark, and the bots the host starts in open seats avoid the
    names and initials of the people who joined."""
    seats = [ANN, {"type": "bot", "bot": "standard"}, {"type": "bot", "bot": "random"}]
    one, two = (create(client, seats, seed=11).json() for _ in range(2))
    names = [
        [s["name"] for s in client.get(f"/api/games/{g['id']}").json()["seats"]] for g in (one, two)
    ]
    assert names[0] == names[1]
    assert names[0][0] == "Ann" and all(n.endswith(" (bot)") for n in names[0][1:])
    assert len({n[0] for n in names[0]}) == 3
    infos = client.get(f"/api/games/{one['id']}").json()["seats"]
    assert [s["bot"] for s in infos] == [None, "standard", "random"]

    named = create(client, [ANN, {"type": "bot", "bot": "random", "name": "  Rob  "}]).json()
    assert client.get(f"/api/games/{named['id']}").json()["seats"][1]["name"] == "Rob (bot)"

    waiting = create(client, [ANN, {"type": "open"}, {"type": "open"}], seed=11).json()
    gid = waiting["id"]
    r = client.post(
        f"/api/games/{gid}/join", json={"code": waiting["invite"], "seat": 1, "name": "Bo"}
    )
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{gid}/start", json={"host_token": waiting["host_token"]})
    started = [s["name"] for s in r.json()["seats"]]
    assert started[:2] == ["Ann", "Bo"] and started[2].endswith(" (bot)")
    assert started[2][0] not in "AB"
