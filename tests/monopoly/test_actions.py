"""``actions.act``: the one-argument actions the rules and bots make on the hot path are the
same values ``Action(kind, (arg,))`` makes, whatever the argument, and are shared when small."""

import pytest

from meeple.games.monopoly import actions as A
from meeple.kernel.protocol import Action


@pytest.mark.parametrize("arg", [0, 1, 39, 255, 256, 4095, -1, -4096, 4096, -4097, 10**12])
def test_act_makes_the_same_action_as_the_class(arg: int) -> None:
    made = A.act(A.BID, arg)
    plain = Action(A.BID, (arg,))
    assert type(made) is Action
    assert made == plain and hash(made) == hash(plain)
    assert (made.kind, made.args) == (A.BID, (arg,))
    assert str(made) == str(plain) and Action.parse(str(made)) == made


def test_act_shares_everyday_arguments_and_makes_the_rest_afresh() -> None:
    assert A.act(A.BUILD, 39) is A.act(A.BUILD, 39)
    assert A.act(A.BUILD, 39) is not A.act(A.MORTGAGE, 39)
    assert A.act(A.TRADE_CASH, 10**6) is not A.act(A.TRADE_CASH, 10**6)  # not kept: no growth
