"""The Monopoly family's rulesets (``meeple.kernel.family.GameFamily.ruleset``).

Every new game's options name the ruleset it plays (``options["ruleset"]``, stamped when it
is made). When a change of the rules would make a game stored or saved before it play
differently, the ruleset goes up, and a game of an older one keeps playing as it was:

1. a game stored before there were rulesets: Player 1 starts (:mod:`.start`);
2. the start player chosen as each rulebook says;
3. the classic rules' jail fine and rent-claim deadline (docs/RULES.md, "Classic rules
   (Hasbro)"): classic offers the fine before the first two tries only
   (``jail_fine_on_last_try``), and an unclaimed rent is lost at the roll of the second player
   following (``rent_claim_turns``). Rulesets 1 and 2 played both the Friends way in every
   edition, which :func:`rule_values` gives them back.
"""

from __future__ import annotations

from typing import Any, Final

RULESET: Final = 3
"""The ruleset a new game plays."""


def rule_values(ruleset: int) -> dict[str, Any]:
    """The rule options a game of ``ruleset`` plays over its edition's (the game's own rule
    options, ``options["rules"]``, then go over these): none for the current ruleset."""
    if ruleset < 3:
        return {"jail_fine_on_last_try": True, "rent_claim_turns": 1}
    return {}
