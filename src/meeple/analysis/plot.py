"""A picture of the board coloured by the share of rolls that end on each square (PNG).

The squares go round the edge as on the printed board: GO in the bottom-right corner, then
clockwise (left along the bottom, up the left side, along the top, down the right side), each
with its index, name and share; a street carries its colour group's band on the inner edge.
The jail square shows Just Visiting and, apart, the share of rolls that end in jail. Drawn with
matplotlib's object API on the Agg canvas (no display, no global ``pyplot`` state).
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

from meeple.extras import need

need("lab", "meeple.analysis.plot (board pictures)", ("matplotlib",))

# After the check: without matplotlib, the error names the extra to install.
from matplotlib import colormaps  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.cm import ScalarMappable  # noqa: E402
from matplotlib.colors import Normalize  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from meeple.analysis.landing import LandingResult  # noqa: E402
from meeple.games.monopoly.tables import STREET  # noqa: E402


def cell(index: int, size: int) -> tuple[int, int, int]:
    """(x, y, side) of square ``index`` on a board of ``size`` squares drawn on a grid of
    ``m + 1`` cells a side (``m = ceil(size / 4)``); side 0 is the bottom row."""
    m = math.ceil(size / 4)
    side, k = divmod(index, m)
    if side == 0:
        return m - k, 0, 0
    if side == 1:
        return 0, k, 1
    if side == 2:
        return k, m, 2
    return m, m - k, 3


def board_figure(res: LandingResult) -> Figure:
    """The board picture as a matplotlib :class:`~matplotlib.figure.Figure`."""
    n = res.edition.size
    m = math.ceil(n / 4)
    shares = [float(x) for x in res.squares]
    # The scale spans the squares' shares (in jail, off the board, is given in words).
    landed = [x for x in shares if x > 0] or [0.0]
    norm = Normalize(vmin=min(landed), vmax=max(max(landed), min(landed) + 1e-9))
    cmap = colormaps["YlOrRd"]
    fig = Figure(figsize=(11, 11), dpi=110)
    ax = fig.add_axes((0.02, 0.02, 0.96, 0.96))
    ax.set_xlim(0, m + 1)
    ax.set_ylim(0, m + 1)
    ax.set_aspect("equal")
    ax.axis("off")
    font = max(4.0, min(7.0, 260 / n))
    for sq in range(n):
        _draw_square(ax, res, sq, cmap(norm(shares[sq])), font)
    _draw_titles(ax, res, (m + 1) / 2)
    # The colour scale, in the middle of the board.
    scale = ax.inset_axes((0.25, 0.38, 0.5, 0.03))
    fig.colorbar(
        ScalarMappable(norm=norm, cmap=cmap), cax=scale, orientation="horizontal", format="{x:.1%}"
    )
    scale.set_xlabel("share of rolls", fontsize=8)
    scale.tick_params(labelsize=7)
    return fig


def _draw_square(
    ax: Axes, res: LandingResult, sq: int, rgba: tuple[float, float, float, float], font: float
) -> None:
    """Square ``sq`` in the colour of its share (``rgba``), with its street's colour band on
    the inner edge, then its index, name and share (ink that reads on the colour)."""
    ed = res.edition
    share = float(res.squares[sq])
    x, y, side = cell(sq, ed.size)
    r, g, b, _ = rgba
    ink = "white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "black"
    ax.add_patch(Rectangle((x, y), 1, 1, facecolor=(r, g, b), edgecolor="black", lw=0.6))
    # The text box: the cell less the colour band on its inner edge.
    tx, ty, tw, th = float(x), float(y), 1.0, 1.0
    if ed.kind[sq] == STREET and ed.group_of[sq] >= 0:
        band = 0.16
        bx, by, bw, bh = {
            0: (x, y + 1 - band, 1.0, band),
            1: (x + 1 - band, y, band, 1.0),
            2: (x, y, 1.0, band),
            3: (x, y, band, 1.0),
        }[side]
        color = ed.groups[ed.group_of[sq]].color
        ax.add_patch(Rectangle((bx, by), bw, bh, facecolor=color, edgecolor="black", lw=0.4))
        if side in (0, 2):
            th -= band
            ty += band if side == 2 else 0.0
        else:
            tw -= band
            tx += band if side == 3 else 0.0
    name = "\n".join(textwrap.wrap(ed.square_names[sq], 11, break_long_words=False)[:3])
    words = f"{share:.2%}"
    if sq == ed.jail:
        words = f"visit {share:.2%}\nin jail {float(res.in_jail):.2%}"
    cx = tx + tw / 2
    for ypos, text, va, size, weight in (
        (0.92, str(sq), "top", font, "bold"),
        (0.55, name, "center", font * 0.85, "normal"),
        (0.08, words, "bottom", font, "bold"),
    ):
        ax.text(
            cx,
            ty + th * ypos,
            text,
            ha="center",
            va=va,
            fontsize=size,
            weight=weight,
            color=ink,
        )


def _draw_titles(ax: Axes, res: LandingResult, mid: float) -> None:
    """The edition's name, what the picture shows, the jail rule and the share of rolls that
    end in jail, in the middle of the board."""
    ax.text(mid, mid + 2.2, res.edition.name, ha="center", va="center", fontsize=15, weight="bold")
    ax.text(
        mid,
        mid + 1.3,
        "Long-run share of dice rolls ending on each square (exact Markov chain)",
        ha="center",
        va="center",
        fontsize=10,
    )
    ax.text(mid, mid + 0.7, f"Jail: {res.jail_rule}", ha="center", va="center", fontsize=9)
    ax.text(
        mid,
        mid + 0.2,
        f"Rolls ending in jail: {float(res.in_jail):.2%}",
        ha="center",
        va="center",
        fontsize=10,
        weight="bold",
    )


def save_board_png(res: LandingResult, path: str | Path) -> None:
    """Write the board picture of ``res`` to ``path`` as a PNG."""
    board_figure(res).savefig(str(path), format="png")
