"""What each edition is like: ``meeple report EDITION`` (issue 20, "What each edition is like").

A page from the lab, in Markdown and in HTML (one file, its plots inside it): how long games
last at each player count, whether going first pays (wins by place in the turn order, with 95%
intervals), where rolls end and which colour sets pay back soonest (Monopoly), how often each
kind of decision comes up (auctions, building shortages, jail choices, ...), and what each rule
option a table may set does to the game. Every figure comes from games between ``standard``
bots played by the simulator (``meeple.sim.runner``: the same games on any number of
workers) and, for Monopoly's boards, from the exact landing analysis (docs/ANALYSIS.md).

The report is data first (:class:`Report`: sections of paragraphs, tables and plots) and is
then written as Markdown (:func:`markdown`) and HTML (:func:`html`), so both say the same.
Plots need ``meeple[lab]`` (matplotlib); without it the report says so and leaves them out.
"""

from __future__ import annotations

import base64
import html as htmllib
import io
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from meeple.bots.base import make_bot
from meeple.buildinfo import build_name
from meeple.extras import installed
from meeple.kernel.family import family_of, game_info, new_game
from meeple.kernel.rng import derive_seed
from meeple.kernel.stats import wilson
from meeple.sim.runner import GameRecord, SimConfig, simulate

BOT = "standard"


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]


@dataclass
class Plot:
    """A figure as PNG bytes, with the file name the Markdown links and its caption."""

    name: str
    caption: str
    png: bytes


Block = str | Table | Plot
"""A paragraph (Markdown's **bold** and `code` allowed), a table or a plot."""


@dataclass
class Section:
    """A titled part of the report: its blocks, in the order they are read."""

    title: str
    blocks: list[Block] = field(default_factory=list)

    @property
    def plots(self) -> list[Plot]:
        return [b for b in self.blocks if isinstance(b, Plot)]


@dataclass
class Report:
    game: str
    title: str
    command: str
    sections: list[Section]


@dataclass(frozen=True)
class Settings:
    """How much to play: ``games`` per player count (and per rule variant), from ``seed``."""

    games: int = 1000
    seed: int = 0
    workers: int = 1
    players: tuple[int, ...] = ()  # () : every count the game allows, up to 6
    main_players: int = 0  # the count the per-rule and per-decision sections use (0: 4 or max)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(wins: float, n: int) -> str:
    lo, hi = wilson(wins, n)
    return f"{_pct(wins / n if n else 0.0)} ({_pct(lo)}-{_pct(hi)})"


def _sim(game: str, players: int, st: Settings, options: dict[str, Any]) -> list[GameRecord]:
    cfg = SimConfig(game, players, st.games, st.seed, (BOT,) * players, options=dict(options))
    return simulate(cfg, st.workers)[1]


def _order_shares(records: list[GameRecord], players: int) -> list[float]:
    """Wins by place in the turn order (0: the player who took the first turn), ties shared."""
    shares = [0.0] * players
    for rec in records:
        for w in rec.winners:
            shares[(w - rec.first) % players] += 1 / len(rec.winners)
    return shares


def length_section(game: str, by_count: dict[int, list[GameRecord]]) -> Section:
    sec = Section("Game length")
    sec.blocks.append(
        "Player-turns and rounds (a turn of every player still in) of games between standard "
        "bots; a game that reaches the simulator's cap of 5,000 player-turns is *capped*."
    )
    rows = []
    for n, recs in by_count.items():
        turns = [r.turns for r in recs]
        rounds = [r.rounds for r in recs]
        capped = sum(r.end_reason == "turn_cap" for r in recs)
        reasons = Counter(r.end_reason for r in recs)
        rows.append(
            [
                str(n),
                str(len(recs)),
                f"{statistics.fmean(turns):.0f}",
                f"{statistics.median(turns):.0f}",
                f"{sorted(turns)[int(0.95 * (len(turns) - 1))]}",
                f"{statistics.fmean(rounds):.1f}",
                _interval(capped, len(recs)),
                ", ".join(f"{k} {v}" for k, v in reasons.most_common()),
            ]
        )
    sec.blocks.append(
        Table(
            [
                "players",
                "games",
                "mean turns",
                "median",
                "95th pct",
                "mean rounds",
                "capped (95% CI)",
                "end reasons",
            ],
            rows,
        )
    )
    return sec


def order_section(by_count: dict[int, list[GameRecord]]) -> Section:
    sec = Section("Going first")
    sec.blocks.append(
        "Wins by place in the turn order (1st: the player who took the first turn, as the "
        "rulebook chooses them), with 95% Wilson intervals; ties share the win. A fair game "
        "gives each place 1 in N."
    )
    most = max(by_count)
    headers = ["players", "fair share"] + [f"{k + 1}. to move" for k in range(most)]
    rows = []
    for n, recs in by_count.items():
        shares = _order_shares(recs, n)
        row = [str(n), _pct(1 / n)] + [_interval(s, len(recs)) for s in shares]
        rows.append(row + [""] * (len(headers) - len(row)))
    sec.blocks.append(Table(headers, rows))
    return sec


def decision_section(game: str, players: int, st: Settings) -> Section:
    """How often each kind of decision comes up: counted in games played here, as the
    simulator plays them (the same seeds and bots), the first ``min(games, 300)`` of them."""
    fam = family_of(game)
    games = min(st.games, 300)
    kinds: Counter[str] = Counter()
    present: Counter[str] = Counter()
    for i in range(games):
        s = new_game(game, players, derive_seed(st.seed, i), {"max_turns": 5000})
        s.record_events = False
        s.record_history = False  # (only the kinds are counted, here)
        bots = [make_bot(BOT, fam.name, derive_seed(st.seed, i, 1 + p)) for p in range(players)]
        seen: Counter[str] = Counter()
        while not s.is_terminal():
            a = bots[s.current_player()].choose(s)
            seen[a.kind] += 1
            s.apply(a)
        kinds.update(seen)
        present.update(seen.keys())
    sec = Section("Decisions")
    hint = (
        " (how often rules come into play: an auction is bids, a building shortage want or "
        "no building, jail pay_fine, use_card or a roll in jail)"
        if fam.name == "monopoly"
        else ""
    )
    sec.blocks.append(
        f"What the players did, by kind of action, in {games} {players}-player games between "
        f"standard bots: the mean per game and the share of games with at least one{hint}."
    )
    rows = [[k, f"{v / games:.1f}", _pct(present[k] / games)] for k, v in kinds.most_common()]
    sec.blocks.append(Table(["action", "per game", "games with it"], rows))
    return sec


def rules_section(game: str, players: int, st: Settings, base: list[GameRecord]) -> Section:
    """Each rule option a table may set (``GameFamily.rule_options``), switched one at a time:
    the games it makes, against the edition's own."""
    fam = family_of(game)
    sec = Section("Rule options")
    options = fam.rule_options(game, {})
    if not options:
        sec.blocks.append(f"{game} offers no rule option to set per game.")
        return sec
    sec.blocks.append(
        f"Each rule option a table may set, one at a time, in {st.games} {players}-player games "
        "between standard bots (the same seeds), against the edition's own rules (first row)."
    )

    def row(label: str, recs: list[GameRecord]) -> list[str]:
        turns = [r.turns for r in recs]
        capped = sum(r.end_reason == "turn_cap" for r in recs)
        first = _order_shares(recs, players)[0]
        return [
            label,
            f"{statistics.fmean(turns):.0f}",
            f"{statistics.median(turns):.0f}",
            _pct(capped / len(recs)),
            _interval(first, len(recs)),
        ]

    rows = [row("the edition's rules", base)]
    for opt in options:
        if opt.kind == "bool":
            values: list[Any] = [not opt.default]
        elif opt.kind == "choice":
            values = [c for c in opt.choices if c != opt.default]
        else:  # a number: half and twice the edition's
            low, high = opt.minimum, opt.maximum
            values = [
                v
                for v in (int(opt.default) // 2, int(opt.default) * 2)
                if (low is None or v >= low) and (high is None or v <= high)
            ]
        for v in values:
            recs = _sim(game, players, st, {"rules": {opt.name: v}})
            rows.append(row(f"{opt.name} = {v!r} (normally {opt.default!r})", recs))
    sec.blocks.append(
        Table(["rules", "mean turns", "median", "capped", "1st to move wins (95% CI)"], rows)
    )
    return sec


def board_section(game: str, records: list[GameRecord], plots: bool) -> Section | None:
    """Monopoly's boards: where rolls end (exact and simulated) and which sets pay back soonest
    (``meeple.analysis`` studies Monopoly boards by design: docs/KERNEL.md, the arrows)."""
    if family_of(game).name != "monopoly":
        return None
    from meeple.analysis.landing import landing_analysis
    from meeple.analysis.rent import rent_per_roll
    from meeple.games.monopoly.edition import builtin_edition

    ed = builtin_edition(game)
    res = landing_analysis(ed, "short")
    sec = Section("The board")
    top = sorted(range(ed.size), key=lambda sq: -res.squares[sq])[:8]
    played = [0] * (ed.size + 1)
    for rec in records:
        for sq, c in enumerate(rec.landings):
            played[sq] += c
    total = sum(played) or 1
    sec.blocks.append(
        "Where rolls end: the exact long-run share (Markov chain, jail left at once; "
        f"{_pct(float(res.in_jail))} of rolls end in jail) beside the share in the simulated "
        "games."
    )
    sec.blocks.append(
        Table(
            ["square", "exact", "in the games"],
            [
                [ed.square_names[sq], _pct(float(res.squares[sq])), _pct(played[sq] / total)]
                for sq in top
            ],
        )
    )
    rows = []
    for r in rent_per_roll(res):
        if r.kind != "street":
            continue
        price = sum(ed.price[sq] for sq in r.squares)
        by = {lv.level: float(lv.per_roll) for lv in r.levels}
        houses3 = price + 3 * r.house_cost * len(r.squares)
        hotel = price + 5 * r.house_cost * len(r.squares)
        rows.append(
            (
                houses3 / by["3"] if by.get("3") else float("inf"),
                [
                    r.name,
                    f"{price}",
                    f"{by.get('set', 0.0):.2f}",
                    f"{by.get('3', 0.0):.2f}",
                    f"{by.get('hotel', 0.0):.2f}",
                    f"{houses3 / by['3']:.0f}" if by.get("3") else "-",
                    f"{hotel / by['hotel']:.0f}" if by.get("hotel") else "-",
                ],
            )
        )
    rows.sort(key=lambda x: x[0])
    if rows:
        sec.blocks.append(
            "Colour sets by return on investment: the expected rent per opponent roll of the "
            "whole set, and how many opponent rolls pay back the deeds and buildings (fewest "
            f"first: **{rows[0][1][0]}** pays back soonest, **{rows[-1][1][0]}** last)."
        )
        sec.blocks.append(
            Table(
                [
                    "set",
                    "deeds cost",
                    "rent/roll, set",
                    "3 houses",
                    "hotels",
                    "payback rolls, 3 houses",
                    "hotels",
                ],
                [r for _, r in rows],
            )
        )
    if plots:
        from meeple.analysis.plot import board_figure

        sec.blocks.append(Plot(f"{game}-board.png", "Where rolls end", _png(board_figure(res))))
    return sec


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return buf.getvalue()


def length_plot(game: str, by_count: dict[int, list[GameRecord]]) -> Plot:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.5))
    for n, recs in by_count.items():
        turns = sorted(r.turns for r in recs)
        ax.plot(turns, [(i + 1) / len(turns) for i in range(len(turns))], label=f"{n} players")
    ax.set_xlabel("player-turns")
    ax.set_ylabel("share of games over by then")
    ax.set_title("How long games last (standard bots)")
    ax.legend()
    ax.grid(alpha=0.3)
    return Plot(f"{game}-length.png", "How long games last", _png(fig))


def build(game: str, st: Settings, command: str) -> Report:
    """Play the games and put the report together."""
    info = game_info(game)
    counts = st.players or tuple(range(info.min_players, min(info.max_players, 6) + 1))
    main = st.main_players or (4 if info.min_players <= 4 <= info.max_players else counts[-1])
    by_count = {n: _sim(game, n, st, {}) for n in counts}
    if main not in by_count:
        by_count[main] = _sim(game, main, st, {})
    plots = installed("lab")
    length = length_section(game, by_count)
    if plots:
        length.blocks.append(length_plot(game, by_count))
    sections = [length, order_section(by_count)]
    board = board_section(game, by_count[main], plots)
    if board is not None:
        sections.append(board)
    sections.append(decision_section(game, main, st))
    sections.append(rules_section(game, main, st, by_count[main]))
    if not plots:
        sections[0].blocks.append("(Plots need `pip install 'meeple[lab]'`.)")
    return Report(game, info.title, command, sections)


def _intro(r: Report) -> str:
    return (
        f"Made by `{r.command}` (meeple's {build_name()} engine). Every game is between "
        "`standard` bots, seeded so that the same command gives the same page on any number of "
        "workers."
    )


def markdown(r: Report) -> str:
    """The report as Markdown; its plots are linked by file name (written beside it)."""
    out = [f"# {r.title}: what the game is like", "", _intro(r), ""]
    for sec in r.sections:
        out += [f"## {sec.title}", ""]
        for b in sec.blocks:
            if isinstance(b, Table):
                out.append("| " + " | ".join(b.headers) + " |")
                out.append("|" + "---|" * len(b.headers))
                out += ["| " + " | ".join(row) + " |" for row in b.rows]
            elif isinstance(b, Plot):
                out.append(f"![{b.caption}]({b.name})")
            else:
                out.append(b)
            out.append("")
    return "\n".join(out)


def _inline(text: str) -> str:
    """Markdown's **bold** and `code` in a paragraph, as HTML (the rest escaped)."""
    parts = htmllib.escape(text).split("**")
    text = "".join(f"<b>{p}</b>" if i % 2 else p for i, p in enumerate(parts))
    parts = text.split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def html(r: Report) -> str:
    """The report as one HTML file, its plots inside it (nothing loaded from elsewhere)."""
    e = htmllib.escape
    out = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(r.title)}: what the game is like</title>",
        "<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:auto;"
        "padding:1rem;line-height:1.45}table{border-collapse:collapse;margin:.5rem 0 1rem;"
        "display:block;overflow-x:auto}td,th{border:1px solid #ccc;padding:.25rem .5rem;"
        "text-align:right}td:first-child,th:first-child{text-align:left}"
        "img{max-width:100%}</style></head><body>",
        f"<h1>{e(r.title)}: what the game is like</h1>",
        f"<p>{_inline(_intro(r))}</p>",
    ]
    for sec in r.sections:
        out.append(f"<h2>{e(sec.title)}</h2>")
        for b in sec.blocks:
            if isinstance(b, Table):
                out.append("<table><thead><tr>")
                out += [f"<th>{e(h)}</th>" for h in b.headers]
                out.append("</tr></thead><tbody>")
                for row in b.rows:
                    out.append("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>")
                out.append("</tbody></table>")
            elif isinstance(b, Plot):
                data = base64.b64encode(b.png).decode("ascii")
                out.append(
                    f'<figure><img src="data:image/png;base64,{data}" alt="{e(b.caption)}">'
                    f"<figcaption>{e(b.caption)}</figcaption></figure>"
                )
            else:
                out.append(f"<p>{_inline(b)}</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
