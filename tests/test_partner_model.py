"""The partner model (bots/partner_model.py) and ``uct`` with it: it reads only public
information (the partners' moves and what the seat sees; dealing the hidden cards again never
changes the move, with a peeking control that the check catches), the true hands of a greedy
partner explain its moves, the posterior tells a greedy partner from a random one, and the
modelled moves are legal."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bots import fastplay, make_bot
from bots.base import play_deal, play_table
from bots.greedy import GreedyPolicy
from bots.partner_model import LAPSE, TYPES, infer, modelled_move, partner_likelihoods
from bots.uct import UctBot
from model.deal import Deal
from model.game import Game
from model.observation import Observation, observe
from model.records import replay
from model.rules import RuleSet
from tests.test_bots import _positions, _reshuffled_hidden
from tests.test_people import moves_differ_with_history

TINY = RuleSet.tiny()
GREEDY = [t.name for t in TYPES].index("greedy")


def test_uct_with_the_partner_model_reads_no_hidden_card() -> None:
    assert moves_differ_with_history(lambda: UctBot(iterations=16, model=True, pool=6, seed=2)) == 0
    assert moves_differ_with_history(
        lambda: UctBot(iterations=16, model=True, model_tree=False, pool=6, seed=2)) == 0


def _posterior(obs: Observation, worlds: list[Game]) -> dict:
    return infer(obs, worlds, random.Random(1), type_worlds=len(worlds)).posterior


def test_the_model_reads_no_hidden_card_and_a_peeking_model_is_caught() -> None:
    """The posterior from worlds drawn from the observation is the same for two games that
    differ only in hidden cards; the same inference run on the real game (a peeking model)
    differs between them somewhere."""
    rng = random.Random(0)
    peeked = checked = 0
    for g in _positions(3, seeds=range(1, 16)):
        other = _reshuffled_hidden(g, rng)
        if other.key() == g.key() or len(observe(g).history) < 3:
            continue
        a = observe(g)
        b = dataclasses.replace(observe(other), history=a.history)
        fair = [[fastplay.Sampler(o).draw(k).to_game() for k in range(6)] for o in (a, b)]
        assert _posterior(a, fair[0]) == _posterior(b, fair[1])
        real = Game.from_parts(g.rules, g.mountain, g.hands, g.decks, g.to_move, g.out, g.turn)
        fake = Game.from_parts(other.rules, other.mountain, other.hands, other.decks,
                               other.to_move, other.out, other.turn)
        peeked += _posterior(a, [real] * 6) != _posterior(b, [fake] * 6)
        checked += 1
    assert checked >= 4 and peeked > 0


def test_the_true_hands_of_a_greedy_partner_explain_its_moves() -> None:
    policy = GreedyPolicy()
    explained = checked = 0
    for seed, players in ((1, 3), (2, 2), (3, 4)):
        g = Game(Deal.from_seed(seed, players))
        while g.outcome() is None and g.turn < 40:
            obs = observe(g)
            if g.turn >= players:
                # which cards were drawn is a random guess: some guess reproduces each move
                draws = [partner_likelihoods(obs, g, random.Random(r), 1) for r in range(30)]
                moves = {(q, k) for lk in draws for q in lk for k in lk[q]}
                for q, k in moves:
                    explained += max(lk[q][k][GREEDY] for lk in draws if k in lk.get(q, {})) >= 1 - LAPSE
                    checked += 1
            g.push(policy.move(g, g.out))
    assert checked > 100 and explained >= 0.98 * checked, (explained, checked)


def test_the_posterior_tells_a_greedy_partner_from_a_random_one() -> None:
    """Seat 2 plays greedy, or a random legal move each turn (noisy at rate 1); from seat 1,
    in the true world (the arithmetic alone), over the positions of 4 deals, the mean
    posterior of the ``greedy`` type is higher for the greedy partner, and that of
    ``noisy-40`` higher for the random one."""
    names = [t.name for t in TYPES]
    mean: dict[str, list[float]] = {}
    for partner in ("greedy", "noisy"):
        posts = []
        for seed in range(1, 5):
            g = Game(Deal.from_seed(seed, 2))
            bots = [make_bot("greedy"), make_bot(partner, **({"rate": 1.0, "seed": 3}
                                                             if partner == "noisy" else {}))]
            while g.turn < 20 and g.outcome() is None:
                if g.to_move == 0 and g.turn >= 4:
                    post = infer(observe(g), [g] * 8, random.Random(2), type_worlds=8).posterior[1]
                    assert abs(sum(post) - 1) < 1e-9
                    posts.append(post)
                g.push(bots[g.to_move].choose(observe(g)))
        mean[partner] = [sum(p[i] for p in posts) / len(posts) for i in range(len(TYPES))]
    greedy, noisy40 = names.index("greedy"), names.index("noisy-40")
    assert mean["greedy"][greedy] > mean["noisy"][greedy], mean
    assert mean["noisy"][noisy40] > mean["greedy"][noisy40], mean


def test_weights_and_prior() -> None:
    g = Game(Deal.from_seed(2, 3))
    policy = GreedyPolicy()
    for _ in range(7):
        g.push(policy.move(g, g.out))
    obs = observe(g)
    s = fastplay.Sampler(obs)
    beliefs = infer(obs, [s.draw(k).to_game() for k in range(10)], random.Random(0))
    assert len(beliefs.weights) == 10 and abs(sum(beliefs.weights) - 1) < 1e-9
    assert set(beliefs.posterior) == {0, 2}
    with pytest.raises(ValueError):
        infer(obs, [], random.Random(0), prior=[1.0])
    with pytest.raises(ValueError):
        UctBot(model=True, model_horizon=-1)


def test_modelled_moves_are_legal_and_adhoc_games_replay() -> None:
    g = Game(Deal.from_seed(3, 3))
    rng = random.Random(5)
    world = fastplay.make_world(g)
    for t in TYPES:
        for _ in range(5):
            m = modelled_move(world, t, rng)
            assert m in g.legal_moves()
    deal = Deal.from_seed(5, 3, TINY)
    a = play_table(deal, [make_bot("plausible", seed=1)] + [UctBot(iterations=24, model=True, pool=6, seed=3)] * 2)
    b = play_table(deal, [make_bot("plausible", seed=1)] + [UctBot(iterations=24, model=True, pool=6, seed=3)] * 2)
    assert replay(deal, a.plan.moves).outcome == a.outcome and a.plan.moves == b.plan.moves
    solo = play_deal(Deal.from_seed(5, 1, TINY), UctBot(iterations=24, model=True, seed=3))
    assert replay(solo.plan.deal, solo.plan.moves).error is None
