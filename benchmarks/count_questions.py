"""How often a Monopoly game asks its players things they have answered before, per game
(issue 38): building-shortage questions (docs/RULES.md, "Building shortage") and trade offers
made again after a refusal (docs/BOTS.md, "Trades: what it remembers").

Plays ``--games`` games of ``--players`` ``--bots`` bots exactly as ``meeple simulate --seed
SEED`` seeds them and counts, per game:

- **questions**: building requests that found buildings short (a ``ShortageFrame`` pushed);
- **prompts**: the answers asked of the other players in them (a decision in that frame);
- **auctions**: building auctions that followed (someone else wanted one too);
- the bank's houses when a house question was asked (a histogram, and how many were asked
  with 16 houses or more left: the issue's "prompts with 16-25 houses in the bank");
- **terminal inputs**: seat 0 played as ``meeple play`` asks a person (``kernel/asking.py``,
  ``TERMINAL_DEFAULT``), the bot standing in for the person's answers: the decisions put to
  seat 0, and how many of them were shortage prompts;
- **offers**: trade offers proposed, those refused, and **repeats**: offers the same player had
  made to the same partner before (the same deeds and cash) and seen refused, and of those
  the repeats while the partner held at least half the cash it refused with (the standard bot
  asks again only once it holds less: docs/BOTS.md, "Trades: what it remembers").

Run: ``.venv/bin/python benchmarks/count_questions.py [--games 1000] [--seed 0]
[--game classic] [--players 4] [--bots standard] [--json FILE]``. Counts, not times: the same
build, games and seed give the same figures on any machine.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from meeple.bots.base import bot_maker
from meeple.games.monopoly.frames import DEED, HOUSE
from meeple.games.monopoly.rules.auction import AuctionFrame
from meeple.games.monopoly.rules.shortage import ShortageFrame
from meeple.games.monopoly.state import MonopolyState
from meeple.kernel.asking import TERMINAL_DEFAULT, auto_move
from meeple.kernel.family import game_family, game_maker
from meeple.kernel.rng import derive_seed
from meeple.sim.runner import DEFAULT_MAX_TURNS

Offer = tuple[int, int, tuple[int, ...], int]
"""A trade offer as the log says it: (proposer, partner, deeds, cash the proposer pays)."""


def count(game: str, players: int, bots: str, games: int, seed: int) -> dict[str, object]:
    """The counts of ``games`` games (module docstring)."""
    make = game_maker(game, players, {"max_turns": DEFAULT_MAX_TURNS})
    bot = bot_maker(bots, game_family(game))
    questions = prompts = auctions = inputs = shortage_inputs = 0
    offers = refused = repeats = nagging = 0
    per_game: Counter[int] = Counter()  # prompts in a game -> games
    bank: Counter[int] = Counter()  # houses in the bank at a house question -> questions
    for i in range(games):
        s = make(derive_seed(seed, i))
        assert isinstance(s, MonopolyState)
        seats = [bot(derive_seed(seed, i, 1 + p)) for p in range(players)]
        asked = 0
        last: object = None  # the frame of the last decision (a new one is a new question)
        seen: dict[Offer, int] = {}  # offers refused: the partner's least cash then
        offer: Offer = (0, 0, (), 0)  # the offer awaiting an answer
        p = s.current_player()
        while p >= 0:
            top = s.stack[-1] if s.stack else None
            if isinstance(top, ShortageFrame):
                asked += 1
                if top is not last:
                    questions += 1
                    if top.item == HOUSE:
                        bank[s.houses] += 1
            elif isinstance(top, AuctionFrame) and top.item != DEED and top is not last:
                auctions += 1
            if p == 0 and auto_move(s, 0, TERMINAL_DEFAULT) is None:
                inputs += 1
                shortage_inputs += isinstance(top, ShortageFrame)
            last = top
            for e in s.apply(seats[p].choose(s)):
                if e.kind == "trade_offer":
                    d = e.data
                    offer = (d["proposer"], d["target"], tuple(sorted(d["deeds"])), d["cash"])
                    offers += 1
                    if offer in seen:
                        repeats += 1
                        nagging += 2 * s.cash[d["target"]] >= seen[offer]
                elif e.kind == "trade_rejected":
                    refused += 1
                    cash = s.cash[offer[1]]
                    seen[offer] = min(cash, seen.get(offer, cash))
            p = s.current_player()
        prompts += asked
        per_game[asked] += 1
    high = sum(n for h, n in bank.items() if h >= 16)
    return {
        "benchmark": f"{game}-questions",
        "games": games,
        "players": players,
        "bots": bots,
        "seed": seed,
        "questions_per_game": round(questions / games, 3),
        "prompts_per_game": round(prompts / games, 3),
        "building_auctions_per_game": round(auctions / games, 3),
        "games_with_prompts": games - per_game[0],
        "house_questions_with_16_or_more_in_bank": high,
        "bank_houses_at_house_questions": dict(sorted(bank.items())),
        "offers_per_game": round(offers / games, 3),
        "refused_per_game": round(refused / games, 3),
        "repeated_refused_offers_per_game": round(repeats / games, 3),
        "repeats_with_the_partner_not_half_as_rich": round(nagging / games, 3),
        "terminal_inputs_per_game": round(inputs / games, 2),
        "terminal_shortage_inputs_per_game": round(shortage_inputs / games, 3),
        "terminal_shortage_share": round(shortage_inputs / inputs, 4) if inputs else 0.0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--game", default="classic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="standard")
    ap.add_argument("--json", dest="json_path")
    a = ap.parse_args()
    if a.games < 1:
        ap.error("--games must be at least 1")
    out = count(a.game, a.players, a.bots, a.games, a.seed)
    print(json.dumps(out, indent=1))
    if a.json_path:
        Path(a.json_path).write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
