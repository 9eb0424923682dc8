"""When the terminal asks (issue 38): a roll is asked only when something is worth doing
before it (building), or in a game whose printed turn is rolling the die (My First Monopoly:
the child rolls); ``wait`` at any prompt asks the person at their next chance to act, as the
web's "I want to act", until they move on."""

from __future__ import annotations

import re
import sys

import pexpect
import pytest

from tests.test_play import prompt, spawn

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

FIRST = ("--rule", "start_player=first_seat")
DECISION = re.compile(r"Turn \d+, [^│\n]*")


def decision_and_choices(child: pexpect.spawn) -> tuple[str, str]:
    """The decision line and the numbered choices of the prompt ``child`` just showed."""
    before = str(child.before)
    lines = DECISION.findall(before)
    choices = before.rsplit("your choice:", 1)[-1]
    return (lines[-1].strip() if lines else ""), choices


def test_wait_asks_at_the_next_chance_then_the_rolls_go_by_themselves() -> None:
    child = spawn(
        "classic", "--seats", "human,standard", "--names", "Ann,Bob", "--seed", "5", *FIRST
    )
    child.expect("Ann, you are asked in your own turn only when you can build")
    child.expect(prompt("Ann"))
    line, choices = decision_and_choices(child)
    assert "may buy Vermont Avenue" in line and "Roll the dice" not in choices  # rolled for her
    child.sendline("wait")
    child.expect("You will be asked at your next chance to act")
    child.expect(prompt("Ann"))
    child.sendline("1")  # buy
    child.expect(prompt("Ann"))
    line, choices = decision_and_choices(child)
    # Held: her next chance is asked (doubles: before her roll again), with what she may do.
    assert "before the roll" in line and "Build" not in choices
    assert "1) Roll the dice" in choices and "Offer a trade to Bob" in choices
    child.sendline("1")  # rolling moves on: the hold ends
    plain_rolls = 0
    for _ in range(10):
        child.expect(prompt("Ann"))
        line, choices = decision_and_choices(child)
        plain_rolls += "before the roll" in line and "Build" not in choices
        child.sendline("1")
    assert plain_rolls == 0
    child.expect(prompt("Ann"))
    child.sendline("quit")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("game", ["my-first-monopoly-1", "my-first-monopoly-2"])
def test_the_child_rolls_the_die_every_turn(game: str) -> None:
    child = spawn(game, "--seats", "human,standard", "--names", "Ann,Bob", "--seed", "5", *FIRST)
    child.expect("Ann, you are asked before each roll")
    for turn in range(1, 4):
        child.expect(prompt("Ann"))
        line, choices = decision_and_choices(child)
        assert f"Turn {2 * turn - 1}, Ann's turn" in line, line
        assert "1) Roll the " in choices, choices
        child.sendline("1")
    child.expect(prompt("Ann"))
    child.sendline("quit")
    child.expect(pexpect.EOF)
