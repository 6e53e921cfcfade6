"""The ``team`` bot: its moves replay in the model, one seed gives one game, the rollouts see no
hidden card (with a control that peeks and is caught), and the beliefs reject a world in which
the blueprint would not have made a partner's move."""

from __future__ import annotations

import dataclasses
import random

from bots.base import play_deal
from bots.greedy import GreedyPolicy
from bots.team import TeamBot, consistent, evaluate_moves, mountains_before, sample_worlds
from model.deal import Deal
from model.game import Game
from model.moves import DISCARD, Move
from model.observation import Observation, observe, sample_world
from model.records import replay
from model.rules import RuleSet
from tests.test_bots import _positions, _reshuffled_hidden

TINY = RuleSet.tiny()


def test_team_games_replay_and_one_seed_gives_one_game() -> None:
    for players in (1, 2, 3):
        deal = Deal.from_seed(3, players, TINY)
        a = play_deal(deal, TeamBot(worlds=3, candidates=3, beliefs=True, seed=1))
        b = play_deal(deal, TeamBot(worlds=3, candidates=3, beliefs=True, seed=1))
        assert replay(deal, a.plan.moves).error is None
        assert a.plan.moves == b.plan.moves


def test_evaluate_moves_uses_the_same_worlds_and_leaves_them_unchanged() -> None:
    g = Game(Deal.from_seed(2, 3, TINY))
    obs = observe(g)
    worlds, _ = sample_worlds(obs, 4, random.Random(1), beliefs=False)
    keys = [w.key() for w in worlds]
    moves = [m for _, m in GreedyPolicy().ranked(obs.view(), obs.out, limit=3)]
    vals = evaluate_moves(obs, moves, worlds)
    assert [v.move for v in vals] == moves
    assert all(v.plays == 4 and 0 <= v.wins <= 4 for v in vals)
    assert [w.key() for w in worlds] == keys


def _moves_differ(make, players=(1, 3)) -> int:
    """How many positions where dealing the hidden cards again changes the bot's move;
    ``make(game)`` builds the bot for the real game ``game`` (a fair bot ignores it)."""
    rng = random.Random(0)
    differ = 0
    for p in players:
        for g in _positions(p, seeds=range(1, 5)):
            other = _reshuffled_hidden(g, rng)
            if other.key() == g.key():
                continue
            a = dataclasses.replace(observe(g), history=())
            b = dataclasses.replace(observe(other), history=())
            differ += make(g).choose(a) != make(other).choose(b)
    return differ


def test_team_rollouts_see_no_hidden_card() -> None:
    assert _moves_differ(lambda g: TeamBot(worlds=3, candidates=3, beliefs=True, seed=2)) == 0


class _PeekingTeam(TeamBot):
    """A control: the rollouts run in the real game instead of sampled worlds."""

    def __init__(self, game: Game) -> None:
        super().__init__(worlds=1, candidates=4, seed=2)
        self.game = game

    def choose(self, observation: Observation) -> Move:
        moves = [m for _, m in self.policy.ranked(observation.view(), observation.out, limit=4)]
        vals = evaluate_moves(observation, moves, [self.game.copy()] * 3)
        return max(vals, key=lambda v: (v.wins, -v.cards_out)).move


def test_the_no_peek_check_catches_a_peeking_rollout() -> None:
    assert _moves_differ(_PeekingTeam) > 0


def _partner_discarded_against_the_blueprint() -> tuple[Game, Move]:
    """A 2-player standard deal where player 1 plays greedy, then player 2 makes a discard
    turn although the blueprint would have placed a card."""
    policy = GreedyPolicy()
    for seed in range(1, 40):
        g = Game(Deal.from_seed(seed, 2))
        g.push(policy.move(g, g.out))
        best = policy.move(g, g.out)
        if best.kind == DISCARD:
            continue
        hand = g.hands[1]
        wrong = Move(DISCARD, 2, discard=(hand[-1], hand[-2]))
        g.push(wrong)
        return g, wrong
    raise AssertionError("no such deal")


def test_beliefs_reject_a_world_where_the_partner_would_have_played_otherwise() -> None:
    g, _ = _partner_discarded_against_the_blueprint()
    obs = observe(g)
    assert not consistent(obs, g.copy())  # the true world: the partner was not the blueprint
    rng = random.Random(3)
    checks = [consistent(obs, sample_world(obs, rng)) for _ in range(30)]
    assert not all(checks)
    worlds, fallbacks = sample_worlds(obs, 5, random.Random(4), beliefs=True, tries=200)
    assert fallbacks == 0 and all(consistent(obs, w) for w in worlds)


def test_beliefs_keep_the_true_world_of_a_blueprint_partner() -> None:
    """With greedy partners the real game is never rejected, at every turn of whole games
    (Campfires and Bridges included), and the mountains replayed from the moves seen are the
    real ones."""
    policy = GreedyPolicy()
    checked = 0
    for seed, players in ((1, 3), (2, 2), (3, 5), (4, 4)):
        g = Game(Deal.from_seed(seed, players))
        mountains: list[list[list]] = []
        while g.outcome() is None and g.turn < 60:
            obs = observe(g)
            if g.turn >= players:
                assert consistent(obs, g.copy())
                assert mountains_before(obs, 2) == [mountains[-1], mountains[-2]]
                checked += 1
            mountains.append([list(r) for r in g.mountain])
            g.push(policy.move(g, g.out))
    assert checked >= 60
