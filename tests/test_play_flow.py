"""Issue 16, the terminal (``meeple play``): asked only when it matters, and words for people.

The pexpect tests play a classic game, a human in seat 0 against three standard bots, by a
scripted answer (always the first choice). With the terminal's default settings the human is
never asked in another player's turn: no prompt shows a window's decision line, and replaying
the saved game through :func:`meeple.kernel.asking.auto_move` finds exactly as many asked
decisions as prompts answered, none of them in another player's turn, while the seat moved on
through many such windows. With ``--others-turns always`` the window prompts appear (so the
first test can fail). The commands ``deed``, ``info``, ``ask``, ``board`` and the new options'
checks are driven the same way; the words (colours, short names, costs, names of players) are
checked on the functions that make them.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pexpect
import pytest

from meeple.cli.play import ask_command, choice_words, parse_choice, table_text
from meeple.games.monopolis.render import panel_lines
from meeple.games.monopolis.state import MonopolisState
from meeple.games.monopoly.board import board_data
from meeple.games.monopoly.render import (
    NAME_WIDTH,
    board_text,
    choice_text,
    decision_line,
    deed_lines,
    find_squares,
    group_style,
    render_board,
    rules_lines,
    short_name,
)
from meeple.games.monopoly.state import MonopolyState
from meeple.games.monopoly.tables import (
    OP_BANK_PAYS,
    OP_COLLECT_FROM_EACH_PLAYER,
    OP_PAY_BANK,
    OP_PAY_EACH_PLAYER,
    OP_REPAIRS,
)
from meeple.kernel.asking import OTHERS_TURN, ROLL, TERMINAL_DEFAULT, AskSettings, auto_move
from meeple.kernel.family import family_of, new_game
from meeple.kernel.position import position_data
from meeple.kernel.protocol import Action, Event
from meeple.kernel.saves import load_game
from tests.test_play import prompt, spawn

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

SEED = "3"
NAMES = ["Ann", "Bob", "Cyd", "Dee"]
WINDOW = "may act before the next turn"  # the decision line of another player's window
FIRST = ("--rule", "start_player=first_seat")  # Ann starts: the prompts below expect her
DECISION = re.compile(r"Turn \d+, [^│\n]*")


def play_first_choices(tmp_path: Path, answers: int, *options: str) -> tuple[list[str], Path]:
    """Answer ``answers`` prompts with "1"; the decision line each prompt showed, and the save."""
    save = tmp_path / "game.json"
    child = spawn(
        "classic",
        "--seats",
        "human,standard,standard,standard",
        "--names",
        ",".join(NAMES),
        "--seed",
        SEED,
        "--save",
        str(save),
        *options,
    )
    decisions = []
    for _ in range(answers):
        child.expect(prompt("Ann"))
        lines = DECISION.findall(str(child.before))
        assert lines, "every prompt follows the decision line"
        decisions.append(lines[-1].strip())
        child.sendline("1")
    child.expect(prompt("Ann"))
    child.sendline("quit")
    child.expect(pexpect.EOF)
    return decisions, save


def asked_moments(save: Path, settings: AskSettings) -> tuple[list[str], int, int]:
    """Replaying the saved game: the moment (or "choice") of every decision of seat 0 the rule
    asks, how many times seat 0 moved on in another player's turn without being asked, and
    how many of its rolls were played for it."""
    saved = load_game(save)
    state = new_game("classic", 4, saved.seed)
    asked: list[str] = []
    passed = rolled = 0
    for action in saved.history:
        if state.current_player() == 0:
            move = state.move_on()
            if auto_move(state, 0, settings) is None:
                asked.append(move.moment if move is not None else "choice")
                if move is not None and move.moment == ROLL:
                    assert move.worth_asking, "a plain roll was asked"
            elif move is not None and move.moment == OTHERS_TURN:
                passed += 1
            elif move is not None and move.moment == ROLL:
                rolled += 1
        state.apply(action)
    return asked, passed, rolled


def test_never_asked_in_another_players_turn_by_default(tmp_path: Path) -> None:
    answers = 40
    decisions, save = play_first_choices(tmp_path, answers)
    assert not [d for d in decisions if WINDOW in d]
    assert all("window" not in d and "pre roll" not in d for d in decisions)
    asked, passed, rolled = asked_moments(save, TERMINAL_DEFAULT)
    assert len(asked) == answers  # one prompt per decision the rule asks, no more
    assert OTHERS_TURN not in asked
    assert passed >= 10  # it did move on through other players' windows
    # Issue 38: no plain "Roll the dice" prompt (only a roll with building worth weighing).
    assert rolled >= 5


def test_others_turns_always_asks_in_every_window(tmp_path: Path) -> None:
    answers = 40
    decisions, save = play_first_choices(tmp_path, answers, "--others-turns", "always")
    windows = [d for d in decisions if WINDOW in d]
    assert windows and all(re.search(r"Turn \d+, (Bob|Cyd|Dee)'s turn is over", d) for d in windows)
    always = AskSettings(others_turns="always", own_turn="build", grace=0.0)
    asked, _, _ = asked_moments(save, always)
    assert len(asked) == answers
    assert asked.count(OTHERS_TURN) == len(windows)


def test_deed_info_board_and_ask_at_the_prompt() -> None:
    child = spawn(
        "classic", "--seats", "human,standard", "--names", "Ann,Bob", "--seed", "5", *FIRST,
        "--own-turn", "roll",
    )  # fmt: skip
    child.expect("Ann, you are asked before each roll")
    child.expect(prompt("Ann"))
    child.sendline("deed 39")
    child.expect(r"39 Boardwalk \(Dark Blue\): price \$400")
    child.expect(r"with 1 house \$200, 2 houses \$600")
    child.expect(r"mortgage value \$200")
    child.expect("owned by the bank")
    child.expect(prompt("Ann"))
    child.sendline("deed penn")
    child.expect("Which one[?] 15 Pennsylvania Railroad, 34 Pennsylvania Avenue")
    child.expect(prompt("Ann"))
    child.sendline("deed zzz")
    child.expect("No square is called 'zzz'")
    child.expect(prompt("Ann"))
    child.sendline("info")
    child.expect(r"\$1500 each to start")
    child.expect("your choice:")  # the choices again
    child.expect(r"1\) Roll the dice")
    child.expect(prompt("Ann"))
    child.sendline("board")
    child.expect("39 Boardwalk")
    child.expect(r"Turn 1, Ann's turn: before the roll\.")
    child.expect("Ann, your choice:")
    child.expect(r"1\) Roll the dice")
    child.expect(prompt("Ann"))
    child.sendline("help")
    child.expect(r"'ask\s+others\s+never\|build\|always'")
    child.expect(prompt("Ann"))
    child.sendline("ask others sometimes")
    child.expect("'ask others' takes never, build, always, not 'sometimes'")
    child.expect(prompt("Ann"))
    child.sendline("ask others always")
    child.expect("From now on you are asked in every other player's turn.")
    for _ in range(30):  # now the windows ask
        child.expect(prompt("Ann"))
        if WINDOW in str(child.before):
            break
        child.sendline("1")
    else:
        pytest.fail("no window prompt after 'ask others always'")
    child.sendline("ask others never")  # the open window moves on at once
    child.expect("From now on you are asked never in other players' turns.")
    child.expect(prompt("Ann"))
    assert WINDOW not in str(child.before)
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_monopolis_help_info_and_points() -> None:
    child = spawn(
        "monopolis", "--seats", "human,standard", "--names", "Ann,Bob", "--seed", "2", *FIRST
    )
    child.expect(r"Points if the game ended now: P1 Ann \d+, P2 Bob \d+")
    child.expect(r"Turn 1, Ann's turn, action 1 of 2: buy a resource card or build\.")
    child.expect(prompt("Ann"))
    child.sendline("help")
    child.expect(
        r"'deed'\s+lists\s+the\s+requirement\s+cards\s+on\s+the\s+table"
    )  # wrapped anywhere
    child.expect("numbers count from 0: buy 0-5")
    child.expect(prompt("Ann"))
    child.sendline("info")
    child.expect("Each turn has two actions")
    child.expect(r"Requirement cards: Type I \(4 resources, 2 of them alike\)")
    child.expect(r"Jokers \(Liza\)")
    child.expect("Ann, your choice:")
    child.expect(prompt("Ann"))
    child.sendline("deed")  # Monopolis has no deeds: the requirement cards on the table
    child.expect(r"Requirement cards on the table \(4\), north first:")
    child.expect(r"1 north of the castle: Type I+ card \(")
    child.expect(r"Type I+: \d resources")
    child.expect(prompt("Ann"))
    child.sendline("buy tools")  # the start of a choice's words, when only one choice has it
    child.expect(r"Ann buys the (left|right) row's \d(st|nd|rd) card for \d money")
    child.expect(prompt("Ann"))
    child.sendline("quit")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--others-turns", "sometimes", "--others-turns must be never, build, always"),
        ("--own-turn", "never", "--own-turn must be build, roll, always"),
    ],
)
def test_bad_ask_options_exit_with_a_reason(option: str, value: str, message: str) -> None:
    child = spawn("classic", option, value)
    child.expect(f"error: {message}, not '{value}'")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


# -- the words, on the functions that make them -------------------------------------------


def test_ask_command() -> None:
    new, answer = ask_command(["own", "always"], TERMINAL_DEFAULT)
    assert new == AskSettings(others_turns="never", own_turn="always", grace=0.0)
    assert "end of each of your turns" in answer
    new, answer = ask_command([], TERMINAL_DEFAULT)
    assert new is None and "never in other players' turns" in answer
    new, answer = ask_command(["own", "never"], TERMINAL_DEFAULT)
    assert new is None and "takes build, roll, always" in answer


@pytest.mark.parametrize("game", ["classic", "friends", "frozen-ii", "my-first-monopoly-1"])
def test_long_names_are_shortened_between_words(game: str) -> None:
    state = new_game(game, 2, 0)
    assert isinstance(state, MonopolyState)
    shorts = {}
    for name in state.ed.square_names:
        short = short_name(name)
        assert len(short) <= NAME_WIDTH
        words = set(name.split()) | {"Ave.", "R.R.", "Electric"}  # whole words, abbreviations
        assert set(short.rstrip("…").split()) <= words, (name, short)
        shorts.setdefault(short, set()).add(name)
    assert all(len(names) == 1 for names in shorts.values())  # squares stay apart


def test_board_colours_and_plain_text() -> None:
    state = new_game("classic", 2, 0)
    assert isinstance(state, MonopolyState)
    text = board_text(state)
    assert text.plain == render_board(state)
    assert "\x1b" not in render_board(state)
    styled = {str(span.style) for span in text.spans}
    for g in state.ed.street_groups:
        assert group_style(state.ed.groups[g].color) in styled
    assert group_style("#fef200") == "black on #fef200"  # yellow: black ink
    assert group_style("#0072bb") == "white on #0072bb"  # dark blue: white ink
    assert "Mediterranean Avenue" in render_board(state)
    assert "<12" in render_board(state)  # both tokens on GO


def test_choice_words_costs_names_and_no_engine_terms() -> None:
    state = new_game("classic", 3, 0)
    assert isinstance(state, MonopolyState)
    names = ["Ann", "Bob", "Cyd"]
    assert choice_text(state, Action("build", (39,)), names) == "Build a house on Boardwalk ($200)"
    state.level[39] = 4
    assert choice_text(state, Action("build", (39,)), names) == "Build a hotel on Boardwalk ($200)"
    assert choice_text(state, Action("trade", (1,)), names) == "Offer a trade to Bob (P2)"
    assert choice_text(state, Action("trade", (2,))) == "Offer a trade to Player 3 (P3)"
    state.owner[1], state.owner[3] = 1, 0  # a trade draft, from Ann to Bob
    state.invalidate()
    state.apply(Action("trade", (1,)))
    assert choice_text(state, Action("trade_deed", (1,)), names) == (
        "Ask for Mediterranean Avenue (Bob's)"
    )
    assert choice_text(state, Action("trade_deed", (3,)), names) == "Give Baltic Avenue"
    assert choice_text(state, Action("trade_cash", (50,)), names) == "Cash: Ann pays $50"
    assert choice_text(state, Action("trade_cash", (-50,)), names) == "Cash: Bob pays $50"
    state.apply(Action("trade_deed", (3,)))
    assert (
        choice_text(state, Action("trade_deed", (3,)), names)
        == "Take Baltic Avenue out of the offer"
    )
    frozen = new_game("frozen-ii", 2, 0)
    assert isinstance(frozen, MonopolyState)
    snow = choice_words(frozen, Action("place_snowflake", (1,)))
    assert snow == f"Put the snowflake on {frozen.ed.square_names[1]}"
    taken = parse_choice(state, "take baltic avenue out of the offer", names)  # the list's words
    assert taken == (Action("trade_deed", (3,)), "")


def test_decision_line_in_words() -> None:
    state = new_game("classic", 2, 0)
    assert isinstance(state, MonopolyState)
    names = ["Ann", "Bob"]
    assert decision_line(state, 0, names) == "Turn 1, Ann's turn: before the roll."
    state.owner[1] = 1  # Bob owns a deed: Ann's window opens after Bob's turn, and Bob's after hers
    state.invalidate()
    while not (state.phase == state.WINDOW and state.current_player() == 1):
        state.apply(state.legal_actions()[0])
    line = decision_line(state, 1, names)
    assert line.endswith("Ann's turn is over: Bob may act before the next turn.")
    text = table_text(state, 1, names)
    assert "window" not in text and "pre roll" not in text and "P2 Bob (you)" in text


def test_deeds_and_rules_from_the_edition() -> None:
    state = new_game("classic", 2, 0)
    assert isinstance(state, MonopolyState)
    assert find_squares(state, "39") == [39]
    assert find_squares(state, "board") == [39]
    assert find_squares(state, "carolina") == [32]
    state.owner[37] = state.owner[39] = 1
    state.level[39] = 5
    state.mortgaged[37] = True
    assert deed_lines(state, 39, 0, ["Ann", "Bob"])[-1] == "  owned by Bob (P2), with a hotel"
    assert deed_lines(state, 37, 0)[-1] == "  owned by Player 2 (P2), mortgaged"
    assert deed_lines(state, 4)[0] == "4 Income Tax: not a deed; landing here costs $200."
    kids = new_game("my-first-monopoly-1", 2, 0)
    assert isinstance(kids, MonopolyState)
    rules = " ".join(rules_lines(kids.ed))
    assert "Time Out" in rules and "house" not in rules


def test_monopolis_panel_scores() -> None:
    state = new_game("monopolis", 2, 0)
    assert isinstance(state, MonopolisState)
    lines = panel_lines(state, 0, ["Ann", "Bob"])
    assert lines[0].startswith(">P1 Ann (you): money 5")
    assert any(line.startswith("Points if the game ended now: P1 Ann ") for line in lines)
    assert lines[-1] == "Turn 1, Ann's turn, action 1 of 2: buy a resource card or build."


# -- issue 38: words everywhere ----------------------------------------------------------


def trade_position(tmp_path: Path) -> Path:
    """A classic position where Ann (P1) owns Baltic Avenue and Bob (P2) Mediterranean Avenue,
    Ann to roll: she may start a trade offer and ask for Bob's deed."""
    state = new_game("classic", 2, 4, {"rules": {"start_player": "first_seat"}})
    assert isinstance(state, MonopolyState)
    state.owner[1], state.owner[3] = 1, 0
    state.invalidate()
    path = tmp_path / "trade.json"
    path.write_text(json.dumps(position_data(state)), encoding="utf-8")
    return path


def test_typed_ask_choices_and_players_by_number_from_1(tmp_path: Path) -> None:
    """A choice whose words start with "Ask" is typed as it reads (the ``ask`` command takes
    only its own forms: issue 38), a player is typed as P2 or by name, and a bare seat number
    is refused, since the action's text counts seats from 0."""
    child = spawn(  # asked before each roll, so that Ann may trade there
        "--from", str(trade_position(tmp_path)), "--seats", "human,standard", "--names", "Ann,Bob",
        "--own-turn", "roll",
    )  # fmt: skip
    child.expect(r"\d+\) Offer a trade to Bob \(P2\)")
    child.expect(prompt("Ann"))
    child.sendline("trade 2")
    child.expect(r"'trade 2': name the player as P2 or by name")
    child.expect(r"not by a bare number")
    child.expect(r"P2 \(Bob\)")
    child.expect(prompt("Ann"))
    child.sendline("trade P2")
    child.expect("Ann drafts an offer to Bob.")
    child.expect(r"1\) Ask for Mediterranean Avenue \(Bob's\)")
    child.expect(prompt("Ann"))
    child.sendline("Ask for Mediterranean Avenue (Bob's)")  # a choice, not the ask command
    child.expect(r"gets\s+Mediterranean Avenue")
    child.expect(r"1\) Take Mediterranean Avenue out of the offer")
    child.expect(prompt("Ann"))
    child.sendline("ask")  # the command in its own form still answers
    child.expect("You are asked before each roll")
    child.expect(prompt("Ann"))
    child.sendline("take medit")  # the start of a choice's words, when only one has it
    child.expect("gets nothing")
    child.expect(prompt("Ann"))
    child.sendline("ask for medit")
    child.expect(r"gets\s+Mediterranean Avenue")
    child.expect(prompt("Ann"))
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_seat_words_count_from_1() -> None:
    state = new_game("classic", 2, 0, {"rules": {"start_player": "first_seat"}})
    assert isinstance(state, MonopolyState)
    names = ["Ann", "Bob"]
    # Refusals name players from 1 (it said "seat 0 must decide").
    assert state.why_illegal(Action("accept")).startswith(
        "Player 1 must decide what to do before the roll now"
    )  # in words, never the engine's phase name ("pre_roll")
    action, reason = parse_choice(state, "trade 1", names)
    assert action is None and "name the player as P1 or by name, not by a bare number" in reason
    refused = parse_choice(state, "trade P3", names)[1]
    assert refused.startswith("'trade p3': there is no player")
    assert refused.endswith("the other players are P2 (Bob)")  # not Ann herself, who types
    state.owner[1] = 1  # Bob owns a deed: Ann may offer him a trade before her roll
    state.invalidate()
    assert parse_choice(state, "trade bob", names) == (Action("trade", (1,)), "")
    assert parse_choice(state, "Trade P2", names) == (Action("trade", (1,)), "")
    state.owner[1] = -1
    state.invalidate()
    help_text = family_of(state.game_id, {}).terminal_help
    assert "trade P2 (an offer to Player 2" in help_text and "trade 1" not in help_text
    # A typed seat move that is not legal now says why, in the engine's words.
    assert "is not legal now" in parse_choice(state, "trade P2", names)[1]


@pytest.mark.parametrize("game", ["classic", "friends", "frozen-ii", "my-first-monopoly-2"])
def test_every_card_that_moves_money_says_how_much(game: str) -> None:
    """The event of drawing a card that pays or costs says the amount (issue 38: the classic
    deck's "Bank pays dividend" said none), in the edition's currency, whatever its text."""
    state = new_game(game, 3, 0)
    assert isinstance(state, MonopolyState)
    ed = state.ed
    money_ops = {
        OP_BANK_PAYS,
        OP_PAY_BANK,
        OP_PAY_EACH_PLAYER,
        OP_COLLECT_FROM_EACH_PLAYER,
        OP_REPAIRS,
    }
    seen = 0
    for d, deck in enumerate(ed.decks):
        for card in deck.cards:
            if card.op not in money_ops:
                continue
            text = state.describe(
                Event("card", {"player": 0, "deck": d, "card": card.id, "text": card.text})
            )
            amounts = [card.a, card.b] if card.op == OP_REPAIRS else [card.a]
            for amount in amounts:
                assert re.search(rf"{re.escape(ed.currency)}{amount}(?!\d)", text), text
            seen += 1
    assert seen >= 3
    if game == "classic":
        bank = next(c for c in ed.decks[0].cards if c.text == "Bank pays dividend")
        text = state.describe(
            Event("card", {"player": 0, "deck": 0, "card": bank.id, "text": bank.text})
        )
        assert text == "Player 1 draws Chance: Bank pays dividend (collect $50)."


@pytest.mark.parametrize("game", ["classic", "friends", "frozen-ii", "my-first-monopoly-1"])
def test_special_squares_are_explained_in_deed_and_info(game: str) -> None:
    """Every square that is not a deed says what it does in ``deed N`` (issue 38: ``deed 5``
    said "Earth: not a deed"), and ``info`` names each edition's special squares and pieces."""
    state = new_game(game, 2, 0)
    assert isinstance(state, MonopolyState)
    ed = state.ed
    board = board_data(state)["squares"]  # what the web page's deed box says
    for sq in range(ed.size):
        if not ed.is_property[sq]:
            (line,) = deed_lines(state, sq)
            head = f"{sq} {ed.square_names[sq]}: not a deed; "
            assert line.startswith(head) and len(line) > len(head) + 15
            assert board[sq]["about"] == line.removeprefix(head).removesuffix(".")
        else:
            assert board[sq]["about"] is None
    info = " ".join(state.rules_summary())
    for deck in ed.decks:
        assert deck.name in info
    if game == "frozen-ii":
        assert deed_lines(state, 5) == [
            "5 Earth: not a deed; an Element space: landing here, you travel ahead to the next "
            "Element space (Wind), collecting M200 if you pass GO."
        ]
        snow = deed_lines(state, 12)[0]
        assert "put the snowflake token on a scene you own" in snow and "double the rent" in snow
        assert "Element spaces (Earth, Wind, Fire and Water)" in info
        assert "The snowflake token" in info
    if game.startswith("my-first"):
        assert "12 sold signs each" in info
        assert "go straight to Time Out" in deed_lines(state, 18)[0]
