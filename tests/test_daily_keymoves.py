"""Key moves (dominators of the winning-state graph) and the exact graph figures, checked
against the naive reference's enumeration of every winning line on tiny positions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from model.deal import Deal, SplitMix64
from model.game import Game
from model.rules import RuleSet
from puzzles.keymoves import TooManyStates, state_key, win_graph
from tests.reference import reference_search, winning_lines

TINY = RuleSet.tiny()


def tiny_positions(count: int) -> list[Game]:
    """Winnable positions of tiny games (1-2 players) played by random placements until at
    most 1 to 4 of the 9 slots below the peak are empty."""
    out = []
    rng = SplitMix64(2026)
    seed = 0
    while len(out) < count:
        seed += 1
        players = 1 + seed % 2
        g = Game(Deal.from_seed(seed, players, TINY))
        target = 1 + rng.next() % 4
        while not g.is_over() and 9 - (g.filled_slots()) > target:
            moves = g.legal_moves()
            places = [m for m in moves if m.kind != "discard"] or moves
            g.push(places[rng.next() % len(places)])
        if g.is_over():
            continue
        pos = g.copy()
        try:
            wg = win_graph(pos, max_states=400)
        except TooManyStates:
            continue
        if wg.winnable and wg.winning_lines() <= 300:
            out.append(pos)
    return out


def edges_of(start: Game, line) -> list[tuple[str, object]]:
    g = start.copy()
    out = []
    for m in line:
        out.append((state_key(g), m))
        g.push(m)
    return out


def naive_random_win(g: Game) -> Fraction:
    if g.is_won():
        return Fraction(1)
    moves = g.legal_moves()
    if not moves:
        return Fraction(0)
    total = Fraction(0)
    for m in moves:
        g.push(m)
        total += naive_random_win(g)
        g.pop()
    return total / len(moves)


POSITIONS = tiny_positions(10)


@pytest.mark.parametrize("pos", POSITIONS, ids=[f"p{i}" for i in range(len(POSITIONS))])
def test_key_moves_are_exactly_the_moves_every_winning_line_makes(pos):
    wg = win_graph(pos)
    lines = list(winning_lines(pos))
    assert lines and wg.winnable
    assert wg.winning_lines() == len(lines)
    edge_sets = [set(edges_of(pos, line)) for line in lines]
    shared = set.intersection(*edge_sets)
    keys = wg.key_moves()
    assert set(keys) == shared
    # in the order a line meets them
    first = edges_of(pos, lines[0])
    assert keys == [e for e in first if e in shared]


@pytest.mark.parametrize("pos", POSITIONS[:5], ids=[f"p{i}" for i in range(5)])
def test_exact_figures_match_the_reference(pos):
    wg = win_graph(pos)
    assert wg.random_win_probability() == naive_random_win(pos.copy())
    waste, line = wg.cheapest_line()
    assert waste == reference_search(pos, "waste")[1]
    g = pos.copy()
    before = len(g.out)
    for m in line:
        g.push(m)
    assert g.is_won() and len(g.out) - before == waste
    firsts = {line[0] for line in winning_lines(pos)}
    assert set(wg.winning_first_moves()) == firsts


def test_positions_are_won_by_the_reference_and_some_have_key_moves():
    for pos in POSITIONS:
        assert reference_search(pos)[0] == "win"
    graphs = [win_graph(p) for p in POSITIONS]
    assert sum(bool(g.key_moves()) for g in graphs) >= 2
    assert any(g.key_moves() for g in graphs)
    assert any(g.winning_lines() > 1 for g in graphs)
