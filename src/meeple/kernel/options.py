"""Rule options as data: the rules a table may change for one game before it starts.

A game family lists the rule options of a game (:meth:`GameFamily.rule_options`) as
:class:`RuleOption` values: a name, a kind (``bool``, ``int`` or ``choice``) with the values it
allows, the edition's value (the rulebook's, and the default), a label and a one-line
description for people, and a group (``"House rules"``, ``"Rulebook readings"``). The drivers
render that list without knowing the game: ``meeple simulate --rule NAME=VALUE`` and ``meeple
play --rule`` parse values by kind, the lobby draws a control per option, ``POST /api/games``
checks a ``rules`` object. A game's choices ride in its options as ``options["rules"] = {NAME:
VALUE}``, so they are in its save file and every replay of it (a game is its id, options, seed
and actions); the family checks the whole combination when it makes the game.

Every function here raises ``ValueError`` with a sentence that names the option and says what
it allows, so the command line (exit 2) and the server (422) refuse a bad value in the same
words, before anything runs or is stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from meeple.kernel.protocol import GameState

RuleValue = bool | int | str
"""A rule option's value: a yes/no, a whole number, or one of a few words."""

RuleKind = Literal["bool", "int", "choice"]

RULES = "rules"
"""The key of a game's options that holds its rule options (``{NAME: VALUE}``)."""

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One rule a table may set per game (see the module docstring).

    ``default`` is the value the game's edition gives (its rulebook's, or meeple's documented
    reading of it); ``choices`` (with ``choice_labels`` in words, in the same order) are a
    ``choice``'s values; ``minimum`` and ``maximum`` bound an ``int`` (``None``: no bound)."""

    name: str
    label: str
    kind: RuleKind
    default: RuleValue
    description: str
    group: str = "House rules"
    choices: tuple[str, ...] = ()
    choice_labels: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def allowed(self) -> str:
        """What the option takes, in words: ``true or false``, ``one of move, fresh``, ``a
        whole number from 0 to 100``."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return f"one of {', '.join(self.choices)}"
        if self.minimum is not None and self.maximum is not None:
            return f"a whole number from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"a whole number, {self.minimum} or more"
        if self.maximum is not None:
            return f"a whole number, {self.maximum} or less"
        return "a whole number"

    def _refuse(self, value: object) -> ValueError:
        return ValueError(f"rule {self.name} takes {self.allowed()}, not {value!r}")

    def check(self, value: object) -> RuleValue:
        """``value`` (from JSON: a request, a save file) if this option allows it, else
        ``ValueError`` naming the option and what it allows. A yes/no is never a number and
        a number never a yes/no (JSON keeps them apart; Python's ``bool`` is an ``int``)."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise self._refuse(value)
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
            raise self._refuse(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self._refuse(value)
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise self._refuse(value)
        return value

    def parse(self, text: str) -> RuleValue:
        """The value a person typed (``--rule NAME=TEXT``): ``true``/``false`` (or yes/no,
        on/off, 1/0) for a yes/no, digits for a number, a choice's word; ``ValueError``
        naming the option and what it allows otherwise."""
        word = text.strip()
        if self.kind == "bool":
            if word.lower() in _TRUE:
                return True
            if word.lower() in _FALSE:
                return False
            raise self._refuse(word)
        if self.kind == "int":
            try:
                number = int(word)
            except ValueError:
                raise self._refuse(word) from None
            return self.check(number)
        return self.check(word)

    def words(self, value: RuleValue) -> str:
        """``value`` as a person reads it: on/off, the number, a choice's label."""
        if self.kind == "bool":
            return "on" if value else "off"
        if self.kind == "choice" and value in self.choices and self.choice_labels:
            return self.choice_labels[self.choices.index(str(value))]
        return str(value)

    def to_dict(self) -> dict[str, Any]:
        """The option as JSON (the lobby's catalog): every field, choices as lists."""
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "default": self.default,
            "description": self.description,
            "group": self.group,
            "choices": list(self.choices),
            "choice_labels": list(self.choice_labels),
            "minimum": self.minimum,
            "maximum": self.maximum,
        }


def check_rules(known: Sequence[RuleOption], given: object, game: str) -> dict[str, RuleValue]:
    """``given`` (a game's ``options["rules"]`` as sent: a JSON object of NAME: VALUE) checked
    against the rule options ``known`` for ``game``: ``ValueError`` for anything but an object,
    for a name that is not an option (naming the ones there are) and for a value the option
    does not take. Returns the values, in the order given."""
    if not isinstance(given, Mapping):
        raise ValueError("rules must be an object of rule option names and values")
    by_name = {o.name: o for o in known}
    out: dict[str, RuleValue] = {}
    for name, value in given.items():
        option = by_name.get(name)
        if option is None:
            raise ValueError(unknown_rule(known, str(name), game))
        out[option.name] = option.check(value)
    return out


def parse_rule_args(known: Sequence[RuleOption], args: Sequence[str], game: str) -> dict[str, Any]:
    """``NAME=VALUE`` texts (``--rule``, repeatable) as a game's ``options["rules"]``, each
    value parsed by its option's kind; ``ValueError`` naming the first bad one. A name given
    twice keeps its last value, as a command line's repeated flag does."""
    by_name = {o.name: o for o in known}
    out: dict[str, Any] = {}
    for arg in args:
        name, eq, text = arg.partition("=")
        name = name.strip()
        if not eq or not name:
            raise ValueError(f"--rule takes NAME=VALUE (such as auctions=false), not {arg!r}")
        option = by_name.get(name)
        if option is None:
            raise ValueError(unknown_rule(known, name, game))
        out[name] = option.parse(text)
    return out


def unknown_rule(known: Sequence[RuleOption], name: str, game: str) -> str:
    """Why ``name`` is refused: the options ``game`` has, or that it has none."""
    if not known:
        return f"{game} has no rule options to set (not {name!r})"
    return f"{game} has no rule option {name!r}; its options: {', '.join(o.name for o in known)}"


def changed_rules(
    known: Sequence[RuleOption], given: Mapping[str, Any] | None
) -> list[tuple[RuleOption, RuleValue]]:
    """The options ``given`` sets to something other than the edition's value, in the order
    of ``known``: what a game's page, its replay and its summary show as "the rules in force".
    Names ``known`` does not list are left out (a family may accept more in its options, such
    as every field of a Monopoly edition's rules, than a table sets per game)."""
    given = given or {}
    return [(o, given[o.name]) for o in known if o.name in given and given[o.name] != o.default]


def rules_words(changes: Sequence[tuple[RuleOption, RuleValue]]) -> list[str]:
    """Each changed option in words: ``Free Parking money: on (normally off)``; "normally":
    the edition's value, which is its rulebook's or meeple's documented reading of it."""
    return [f"{o.label}: {o.words(v)} (normally {o.words(o.default)})" for o, v in changes]


def game_rule_options(state: GameState) -> list[RuleOption]:
    """The rule options of a running game's id and options (its family's list)."""
    from meeple.kernel.family import family_of_state

    return family_of_state(state).rule_options(state.game_id, state.options)


def rules_in_force(state: GameState) -> list[str]:
    """A running game's rules that differ from its edition's, in words (:func:`rules_words`);
    empty when it plays by the book."""
    return rules_words(changed_rules(game_rule_options(state), state.options.get(RULES)))
