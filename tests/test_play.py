"""``meeple play`` driven through a pseudo-terminal (pexpect), as a person would use it.

One human against a bot: answer prompts by number and by action text, bad input is refused
with a reason and asked again, ``--save`` then ``--resume`` continues the same game; two
humans at one keyboard are each prompted by name; a whole game against bots reaches its end.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest

from meeple.cli.play import parse_choice
from meeple.kernel.family import new_game
from meeple.kernel.protocol import Action
from meeple.kernel.saves import load_game

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

TIMEOUT = 30


def spawn(*args: str) -> pexpect.spawn:
    env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS="120")
    return pexpect.spawn(
        sys.executable,
        ["-m", "meeple.cli.main", "play", *args],
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
    )


def prompt(name: str) -> str:
    return rf"{name}\S* > "


def test_one_human_save_bad_input_and_resume(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # Asked before each roll (--own-turn roll): the game's first prompt is a roll to answer.
    child = spawn(
        "classic", "--seats", "human,random", "--seed", "5", "--save", str(save),
        "--own-turn", "roll",
    )  # fmt: skip
    child.expect("Monopoly")
    child.expect("Player 1, your choice:")
    child.expect(r"1\) Roll the dice")
    child.expect(prompt("Player 1"))
    child.sendline("dance")
    child.expect("Not accepted: .*no action 'dance'")
    child.expect(prompt("Player 1"))
    child.sendline("99")
    child.expect("99 is not a choice")
    child.expect(prompt("Player 1"))
    child.sendline("build 39")
    child.expect("Not accepted")
    child.expect(prompt("Player 1"))
    child.sendline("roll")  # the action's text
    child.expect("Player 1 rolls")
    answered = 1
    while answered < 6:
        child.expect([prompt("Player 1"), r"Player 2 \(random\): "])
        if "Player 1" in str(child.after):
            child.sendline("1")
            answered += 1
    child.expect(prompt("Player 1"))
    child.sendline("quit")
    child.expect("The game is saved in")
    child.expect(pexpect.EOF)
    saved = load_game(save)
    played = len(saved.history)
    assert played >= 6 and saved.seed == 5

    again = spawn("--resume", str(save), "--seats", "human,random", "--own-turn", "roll")
    again.expect(f"Resuming classic \\(seed 5\\) after {played} actions")
    again.expect(prompt("Player 1"))
    again.sendline("1")
    again.expect(prompt("Player 1"))
    again.sendline("quit")
    again.expect(pexpect.EOF)
    resumed = load_game(save)
    assert len(resumed.history) > played
    assert [str(a) for a in resumed.history[:played]] == [str(a) for a in saved.history]


def test_two_humans_are_prompted_by_name(tmp_path: Path) -> None:
    child = spawn("monopolis", "--seats", "human,human", "--names", "Ann,Bob", "--seed", "2")
    # The start player is drawn at setup (seed 2: seat 2) and the terminal says so first.
    child.expect("Bob starts and takes the start player marker.")
    child.expect("Bob, your choice:")
    seen = set()
    for _ in range(8):
        child.expect([prompt("Ann"), prompt("Bob")])
        seen.add(str(child.after).split(">")[0].strip())
        child.sendline("1")
        if len(seen) == 2:
            break
    assert seen == {"Ann", "Bob"}
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_bots_play_a_whole_game_to_the_end() -> None:
    child = spawn("my-first-monopoly-2", "--seats", "random,random", "--seed", "1")
    child.expect("Game over")
    child.expect("Winner: Player")
    child.expect(pexpect.EOF)


def test_bad_arguments_exit_with_a_reason(tmp_path: Path) -> None:
    child = spawn("classic", "--seats", "human,wizard")
    child.expect("unknown seat 'wizard'")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    child = spawn("--resume", str(tmp_path / "missing.json"))
    child.expect("cannot read")
    child.expect(pexpect.EOF)


def test_parse_choice() -> None:
    s = new_game("classic", 2, 0)
    assert parse_choice(s, "1") == (Action("roll"), "")
    assert parse_choice(s, "Roll the dice") == (Action("roll"), "")
    action, reason = parse_choice(s, "")
    assert action is None and "number" in reason
    action, reason = parse_choice(s, "buy")
    assert action is None and "not legal now" in reason


def test_why_says_the_bots_reasons() -> None:
    """'why' explains the last bot move; 'why on' explains each one as it happens (issue 20)."""
    child = spawn("classic", "--seats", "human,standard", "--seed", "5", "--names", "Ann,Bot")
    child.expect(prompt("Ann"))
    child.sendline("why")  # (seed 5: the bot won the roll-off and played its first turn)
    child.expect(r"Bot \(standard\): End the turn \(standard says no more\)\.")
    child.expect(prompt("Ann"))
    child.sendline("why on")
    child.expect("Each bot move now comes with its reason.")
    for _ in range(40):  # Ann takes the first choice until the bot has bought something
        child.sendline("1")
        if child.expect([prompt("Ann"), r"\(why: buys [^)]+\)"]) == 1:
            break
    else:
        raise AssertionError("the bot never said why it bought")
    child.expect(prompt("Ann"))
    child.sendline("why")
    child.expect(r"Bot \(standard\): .+")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_hint_shows_each_choice_with_its_chance() -> None:
    """'hint' asks the advisor (issue 21): each choice with its number, chance and interval,
    the best starred; --no-hints turns it off for the table."""
    child = spawn("classic", "--seats", "human,standard", "--seed", "5", "--names", "Ann,Bot")
    child.expect(prompt("Ann"))
    child.sendline("hint")
    child.expect("Thinking for 2 seconds")
    child.expect(r"\d+\) \* .+\d+\.\d% \(\d+\.\d-\d+\.\d%\)")
    child.expect(r"Chance to win against standard play, \d+ games played out")
    child.expect(prompt("Ann"))
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child = spawn("classic", "--seats", "human,standard", "--seed", "5", "--no-hints")
    child.expect(prompt("Player 1"))
    child.sendline("hint")
    child.expect("Hints are off at this table.")
    child.sendline("quit")
    child.expect(pexpect.EOF)
