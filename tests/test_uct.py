"""The ``uct`` bot: its games replay in the model and repeat with a seed, it reads no hidden
card (with a peeking control that the check catches), its root statistics add up, and it
finds the better move where the blueprint's first choice is clearly worse."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bots import fastplay, make_bot
from bots.base import play_deal
from bots.greedy import GreedyPolicy
from bots.team import evaluate_moves
from bots.uct import IterationBudget, UctBot
from model.deal import Deal
from model.game import Game
from model.observation import Observation, observe, sample_world
from model.records import replay
from model.rules import RuleSet
from tests.test_team import _moves_differ

TINY = RuleSet.tiny()


def test_uct_games_replay_and_one_seed_gives_one_game() -> None:
    for players in (1, 2, 3):
        deal = Deal.from_seed(5, players, TINY)
        for kw in ({}, {"departures": 0.3}):
            a = play_deal(deal, UctBot(iterations=24, seed=3, **kw))
            b = play_deal(deal, UctBot(iterations=24, seed=3, **kw))
            rep = replay(deal, a.plan.moves)
            assert rep.error is None and rep.outcome == a.outcome
            assert a.plan.moves == b.plan.moves


def test_uct_reads_no_hidden_card() -> None:
    assert _moves_differ(lambda g: UctBot(iterations=16, seed=2)) == 0
    assert _moves_differ(lambda g: UctBot(iterations=16, beliefs=True, pool=4, seed=2),
                         players=(3,)) == 0
    # the adaptive iteration budget reads the root's visits only
    assert _moves_differ(lambda g: UctBot(iterations=16, max_iterations=64, seed=2)) == 0
    # partners expected to depart from the blueprint: in the tree and the compiled playouts
    assert _moves_differ(lambda g: UctBot(iterations=16, departures=0.3, seed=2)) == 0


class _PeekingUct(UctBot):
    """A control: every iteration plays the real game instead of a sampled world."""

    def __init__(self, game: Game) -> None:
        super().__init__(iterations=16, seed=2)
        self.game = game

    def _world_source(self, observation: Observation, rng: random.Random
                      ) -> Callable[[int], fastplay.World]:
        world = fastplay.make_world(self.game)
        return lambda i: world.copy()


def test_the_no_peek_check_catches_a_peeking_search() -> None:
    assert _moves_differ(_PeekingUct) > 0


def test_root_statistics_add_up() -> None:
    g = Game(Deal.from_seed(2, 3, TINY))
    bot = UctBot(iterations=40, candidates=4, seed=1)
    move = bot.choose(observe(g))
    assert sum(v.visits for v in bot.last) == 40
    assert all(v.visits >= 1 and 0 <= v.wins <= v.visits for v in bot.last)
    assert move == max(bot.last, key=lambda v: v.visits).move
    assert bot.playouts == 40


def _position_where_greedy_errs() -> tuple[Observation, list]:
    """A solo tiny position (seed 36, greedy with random slips, turn 7) where the blueprint's
    second choice wins far more often than its first."""
    policy = GreedyPolicy()
    g = Game(Deal.from_seed(36, 1, TINY))
    rng = random.Random(36)
    while g.turn < 7:
        g.push(policy.move(g, g.out) if rng.random() < 0.8 else rng.choice(g.legal_moves()))
    obs = observe(g)
    return obs, [m for _, m in policy.ranked(obs.view(), obs.out, limit=5)]


def test_the_search_prefers_the_move_that_wins_more() -> None:
    obs, moves = _position_where_greedy_errs()
    worlds = [sample_world(obs, random.Random(i)) for i in range(60)]
    shares = [v.share for v in evaluate_moves(obs, moves, worlds)]
    assert shares[1] >= shares[0] + 0.3  # the premise: the blueprint's own choice is worse
    bot = UctBot(iterations=300, candidates=5, seed=4)
    assert bot.choose(obs) == moves[1]
    assert GreedyPolicy().move(obs.view(), obs.out) == moves[0]


def test_bad_parameters_are_refused() -> None:
    for kw in ({"iterations": 0}, {"candidates": 0}, {"depth_candidates": 0},
               {"exploration": -1.0}, {"pool": 0}, {"iterations": 1.5},
               {"exploration": float("inf")}, {"exploration": float("nan")}, {"exploration": True},
               {"departures": -0.1}, {"departures": 1.5}, {"departures": True},
               {"departures": float("nan")}, {"departure_top": 0}):
        with pytest.raises(ValueError):
            UctBot(**kw)
    assert make_bot("uct", iterations=3).iterations == 3
    for kw in ({"max_iterations": 10}, {"max_iterations": 40.0}, {"max_iterations": 80, "close": 0},
               {"max_iterations": 80, "close": 1.5}, {"max_iterations": 80, "close": True}):
        with pytest.raises(ValueError):
            UctBot(iterations=40, **kw)


def _positions(n: int) -> list[Observation]:
    """Observations of tiny games at 1-3 players, greedy with random slips, mid-game."""
    policy, out = GreedyPolicy(), []
    for seed in range(n):
        g = Game(Deal.from_seed(seed, 1 + seed % 3, TINY))
        rng = random.Random(seed)
        for _ in range(rng.randint(0, 6)):
            if g.is_over():
                break
            g.push(policy.move(g, g.out) if rng.random() < 0.8 else rng.choice(g.legal_moves()))
        if not g.is_over():
            out.append(observe(g))
    return out


def test_a_settled_decision_stops_early_with_the_fixed_budgets_move() -> None:
    # with max_iterations = iterations nothing is extended: a decision stops only once the
    # runner-up cannot catch up within the allowance, so the move is the fixed budget's
    stopped_early = 0
    for obs in _positions(24):
        fixed = UctBot(iterations=200, seed=7)
        adaptive = UctBot(iterations=200, max_iterations=200, close=1.0, seed=7)
        assert adaptive.choose(obs) == fixed.choose(obs)
        if adaptive.last[0].visits or len(adaptive.last) > 1:
            used = sum(v.visits for v in adaptive.last)
            assert used <= 200
            stopped_early += used < 200
    assert stopped_early > 0


def test_a_close_decision_gets_more_iterations_up_to_the_maximum() -> None:
    budget = IterationBudget(100, 400, close=0.8, every=10)
    assert budget.next_stop(100, 100, [50, 45]) == 200  # close at the end: extended
    assert budget.next_stop(400, 400, [200, 190]) == 400  # at the maximum: no more
    assert budget.next_stop(100, 100, [80, 20]) == 100  # not close: the end
    assert budget.next_stop(60, 100, [58, 2]) == 60  # 2 + 40 left < 0.8 * 58: settled now
    assert budget.next_stop(55, 100, [50, 5]) is None  # between two looks
    assert IterationBudget(100).next_stop(100, 100, [50, 50]) == 100  # the fixed budget
    extended = 0
    for obs in _positions(24):
        bot = UctBot(iterations=60, max_iterations=240, seed=3)
        bot.choose(obs)
        used = sum(v.visits for v in bot.last)
        assert used <= 240
        extended += used > 60
    assert extended > 0


@pytest.mark.parametrize("argv", [["play", "--out", "X", "--seeds", "5-1"],
                                  ["play", "--out", "X", "--players", "7"],
                                  ["report", "--out", "X", "--extra", "missing.jsonl"]])
def test_team_benchmark_refuses_bad_input(argv: list[str], tmp_path, capsys) -> None:
    """benchmarks.team: an empty seed range, a player count off 1-5 or a missing --extra file
    is a one-line error (exit 2), never a silent empty table or a traceback."""
    from benchmarks.team import main

    argv = [str(tmp_path / a) if a in ("X", "missing.jsonl") else a for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")
    assert not (tmp_path / "X").exists()


@pytest.mark.skipif(not fastplay.AVAILABLE, reason="bots._playout is not built")
def test_the_search_is_the_same_with_and_without_the_compiled_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A seed gives the same worlds on both paths (bots.fastplay), so the same root statistics
    and the same move, here under discards_seen=own and every move-ruling option."""
    rules = RuleSet.from_options(["preset=tiny", "discards_seen=own", "bridge_neighbour=look-through",
                                  "bridge_replace_cost=left", "campfire_move_cost=free"])
    rng = random.Random("uct-paths")
    policy = GreedyPolicy()
    searched = 0
    for _ in range(12):
        g = Game(Deal.from_seed(rng.randrange(10**6), players=rng.randint(2, 3), rules=rules))
        for _ in range(rng.randint(0, 4)):
            if g.outcome() is not None:
                break
            g._apply(policy.move(g, g.out))
        if g.outcome() is not None:
            continue
        obs = observe(g)
        compiled = UctBot(iterations=30, seed=4)
        move = compiled.choose(obs)
        with monkeypatch.context() as m:
            m.setattr(fastplay, "AVAILABLE", False)
            python = UctBot(iterations=30, seed=4)
            assert python.choose(obs) == move
        assert python.last == compiled.last
        searched += sum(v.visits for v in compiled.last) > 0
    assert searched >= 3


@pytest.mark.parametrize("bot,params", [("greedy", {}), ("team", {"worlds": 2}),
                                        ("uct", {"iterations": 8})])
def test_silent_bots_play_whole_games_with_goats(bot: str, params: dict) -> None:
    """With the Goats module the greedy blueprint moves goats when nothing cheap fits (G2),
    the observation shows where the goats stand, and every game replays in the model."""
    from model.observation import observe as look

    rules = RuleSet.from_options(["preset=tiny", "goats=on"])
    moved = 0
    for seed in range(1, 5):
        deal = Deal.from_seed(seed, 2, rules)
        result = play_deal(deal, make_bot(bot, **params))
        rep = replay(deal, result.plan.moves)
        assert rep.error is None and rep.outcome == result.outcome
        moved += sum(m.kind == "goat" for m in result.plan.moves)
        g = rep.game
        assert g is not None and look(g).view().goats == g.goats
    assert moved > 0


def test_uct_budget_benchmark_pairs_the_configs_and_refuses_bad_input(tmp_path, capsys) -> None:
    from benchmarks.journal import append_row
    from benchmarks.uct_budget import main, report

    for seed, fixed, adaptive in ((1, "win", "win"), (2, "loss", "win"), (3, "loss", "loss")):
        for name, outcome in (("fixed", fixed), ("adaptive", adaptive)):
            append_row(tmp_path / f"{name}.jsonl", {
                "players": 5, "seed": seed, "outcome": outcome, "searches": 10,
                "playouts": 16000 if name == "fixed" else 20000, "cpu_s": 1.0})
    text = report(tmp_path)
    assert "| adaptive | 5 | 3 | 2 | 1 | +33 pts [" in text and "| 2000 |" in text
    assert (tmp_path / "report.md").read_text() == text
    for argv in (["play", "--out", str(tmp_path), "--config", "nope"],
                 ["play", "--out", str(tmp_path), "--config", "fixed", "--players", "7"],
                 ["report", "--out", str(tmp_path / "empty")]):
        assert main(argv) == 2
        assert "error" in capsys.readouterr().err


def test_departures_change_what_the_search_expects_of_the_partners() -> None:
    """With partners expected to depart from the blueprint, the root's statistics differ from
    the search that expects the blueprint (the option reaches the tree and the playouts); with
    one player there is no partner and the search is the same."""
    differ = 0
    for obs in _positions(12):
        plain = UctBot(iterations=40, seed=4)
        plain.choose(obs)
        people = UctBot(iterations=40, departures=1.0, seed=4)
        people.choose(obs)
        same = [(v.visits, v.wins) for v in plain.last] == [(v.visits, v.wins) for v in people.last]
        if obs.players == 1:
            assert same
        else:
            differ += not same
    assert differ >= 1


def test_a_departure_top_past_the_ranking_plays() -> None:
    """``departure_top`` as large as the user likes (``--partners uct:departure_top=N``) is
    the whole ranking, not an OverflowError in the middle of a game."""
    deal = Deal.from_seed(5, 3, TINY)
    a = play_deal(deal, UctBot(iterations=12, departures=0.5, departure_top=2**40, seed=1))
    b = play_deal(deal, UctBot(iterations=12, departures=0.5, departure_top=10**6, seed=1))
    assert a.plan.moves == b.plan.moves
