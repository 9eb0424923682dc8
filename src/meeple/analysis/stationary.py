"""The exact stationary distribution of a finite Markov chain, by state reduction.

The GTH algorithm (Grassmann, Taksar and Heyman, "Regenerative analysis and steady state
distributions for Markov chains", Operations Research 33(5), 1985) removes states one at a
time, folding every path through a removed state into the transitions between the states that
remain (the censored chain), then recovers the removed states' weights in reverse order. It
never subtracts, so with :class:`~fractions.Fraction` entries the answer is exact, and it keeps
the transition rows sparse: removing the states that few paths enter first (in the landing
chain, the "after a double" states) keeps the fill-in small.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def closed_class(rows: Sequence[dict[int, Fraction]], start: int) -> list[int]:
    """The states of the one closed communicating class reachable from ``start``, sorted.

    A long-run share exists and does not depend on the start when exactly one closed class is
    reachable; ``ValueError`` otherwise (strongly connected components by Kosaraju's method).
    """
    reach = _reach(rows, [start])
    order: list[int] = []  # states by finishing time of an iterative depth-first search
    seen: set[int] = set()
    for root in sorted(reach):
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(sorted(rows[root])))]
        while stack:
            node, it = stack[-1]
            nxt = next((j for j in it if j not in seen), None)
            if nxt is None:
                stack.pop()
                order.append(node)
            else:
                seen.add(nxt)
                stack.append((nxt, iter(sorted(rows[nxt]))))
    back: dict[int, list[int]] = {i: [] for i in reach}
    for i in reach:
        for j in rows[i]:
            back[j].append(i)
    component: dict[int, int] = {}
    for root in reversed(order):
        if root in component:
            continue
        component[root] = root
        todo = [root]
        while todo:
            for i in back[todo.pop()]:
                if i not in component:
                    component[i] = root
                    todo.append(i)
    leaves = {component[i] for i in reach} - {
        component[i] for i in reach for j in rows[i] if component[j] != component[i]
    }
    if len(leaves) != 1:
        raise ValueError(f"the chain has {len(leaves)} closed classes, not one")
    (leaf,) = leaves
    return sorted(i for i in reach if component[i] == leaf)


def _reach(rows: Sequence[dict[int, Fraction]], starts: list[int]) -> set[int]:
    seen = set(starts)
    todo = list(starts)
    while todo:
        for j in rows[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def stationary(rows: Sequence[dict[int, Fraction]], states: Sequence[int]) -> dict[int, Fraction]:
    """The stationary distribution over ``states`` (one closed class, irreducible), exactly.

    ``rows[i]`` maps each successor ``j`` of state ``i`` to ``P(i -> j)``; the states are
    removed in the order given, so put the rarely entered ones first. Returns ``{state: pi}``
    with the weights summing to exactly 1.
    """
    live = set(states)
    out = {i: {j: p for j, p in rows[i].items() if j != i and j in live} for i in states}
    ins: dict[int, set[int]] = {i: set() for i in states}
    for i, row in out.items():
        for j in row:
            ins[j].add(i)
    removed: list[tuple[int, Fraction, dict[int, Fraction]]] = []
    for k in states[:-1]:
        row = out.pop(k)
        total = sum(row.values(), Fraction(0))
        if total == 0:
            raise ValueError(f"state {k} cannot leave: the chain is not irreducible")
        scaled = {j: p / total for j, p in row.items()}
        for j in row:
            ins[j].discard(k)
        into: dict[int, Fraction] = {}
        for i in ins.pop(k):
            ri = out[i]
            a = ri.pop(k)
            into[i] = a
            for j, q in scaled.items():
                if j == i:
                    continue  # a loop back to i: the censored chain ignores the diagonal
                if j in ri:
                    ri[j] += a * q
                else:
                    ri[j] = a * q
                    ins[j].add(i)
        removed.append((k, total, into))
    weight = {states[-1]: Fraction(1)}
    for k, total, into in reversed(removed):
        weight[k] = sum((weight[i] * a for i, a in into.items()), Fraction(0)) / total
    norm = sum(weight.values(), Fraction(0))
    return {i: w / norm for i, w in weight.items()}
