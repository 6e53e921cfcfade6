"""The game registered with OpenSpiel (optional extra ``.[openspiel]``; CI installs it).

Checked with OpenSpiel's own API: ``pyspiel.random_sim_test`` (random games through the
``pyspiel`` state methods, chance outcomes summing to one, clones, information-state and
observation strings, serialization round trips) and a serialize/deserialize round trip; then
the ISMCTS bot plays a tiny deal legally from observations only."""

from __future__ import annotations

import pytest

# slow: OpenSpiel's own random-game checks and an ISMCTS game (pytest -m "not slow" skips them)
pytestmark = [pytest.mark.slow, pytest.mark.openspiel]

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is the optional extra: pip install -e '.[openspiel]'")

import bots.openspiel_game  # noqa: E402,F401 - registers python_ascent
from bots import make_bot  # noqa: E402
from bots.base import play_deal  # noqa: E402
from model.deal import Deal, shuffle  # noqa: E402
from model.records import replay  # noqa: E402
from model.rules import RuleSet  # noqa: E402


@pytest.mark.parametrize("players", [1, 2, 3])
def test_random_simulation_passes_openspiel_checks(players: int) -> None:
    game = pyspiel.load_game(f"python_ascent(players={players},rules=preset:tiny)")
    gt = game.get_type()
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.utility == pyspiel.GameType.Utility.IDENTICAL
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_shuffle_is_a_chance_node_and_strings_hide_cards() -> None:
    game = pyspiel.load_game("python_ascent(players=2,rules=preset:tiny)")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    # deal the shuffle of deal 5: the state then holds deal 5 (R13)
    rules = RuleSet.tiny()
    data = game.data
    for card in shuffle(rules.composition(), 5):
        state.apply_action(data.card_types.index(card))
    assert not state.is_chance_node() and state.current_player() == 0
    deal = Deal.from_seed(5, 2, rules)
    assert state.game.decks == [list(d[rules.hand_size:]) for d in deal.decks]
    assert state.game.hands[0] != state.game.hands[1]
    p1, p2 = state.information_state_string(0), state.information_state_string(1)
    hand1 = " ".join(c.text for c in state.game.hands[0])
    hand2 = " ".join(c.text for c in state.game.hands[1])
    assert f"hand {hand1} |" in p1 and f"hand {hand2} |" not in p1
    assert f"hand {hand2} |" in p2
    # serialization round trip mid-game
    for _ in range(3):
        state.apply_action(state.legal_actions()[-1])
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) and state2.history() == state.history()
    # a resampled state keeps what player 1 sees
    other = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0., 1.))
    assert other.observation_string(state.current_player()) == state.observation_string(state.current_player())


def test_ismcts_bot_plays_a_tiny_deal() -> None:
    deal = Deal.from_seed(2, 2, RuleSet.tiny())
    result = play_deal(deal, make_bot("openspiel-ismcts", simulations=10, seed=1))
    assert replay(deal, result.plan.moves).error is None
    assert result.outcome in ("win", "loss")


# ---- resample_from_infostate: the same information state, other hidden cards ----------------

import random  # noqa: E402
from collections import Counter  # noqa: E402

import numpy as np  # noqa: E402

from bots import openspiel_game as og  # noqa: E402

RULES = ["preset:tiny", "preset:tiny;discards_seen:own", "discards_seen:own;goats:on", ""]


def _random_position(game, rng: random.Random, moves: int):
    """A state of ``game`` after the shuffle and ``moves`` random player moves (fewer if the
    game ends), and the player whose view is resampled (the mover or another seat)."""
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _hidden(state, player: int) -> Counter:
    g = state.game
    cards = [c for q, h in enumerate(g.hands) if q != player for c in h]
    return Counter(cards + [c for d in g.decks for c in d] + list(g.out))


def _check_resampled(state, other, player: int) -> None:
    """``other`` has ``player``'s information state and differs only in hidden cards."""
    assert other.information_state_string(player) == state.information_state_string(player)
    assert other.observation_string(player) == state.observation_string(player)
    assert len(other.history()) == len(state.history())
    a, b = state.game, other.game
    assert a.mountain == b.mountain and a.hands[player] == b.hands[player]
    assert [len(h) for h in a.hands] == [len(h) for h in b.hands]
    assert [len(d) for d in a.decks] == [len(d) for d in b.decks]
    assert (a.to_move, a.turn, a.goats) == (b.to_move, b.turn, b.goats)
    assert _hidden(state, player) == _hidden(other, player)
    # a full state of OpenSpiel's: clones and serialization round trips hold
    text = pyspiel.serialize_game_and_state(other.get_game(), other)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert again.information_state_string(player) == state.information_state_string(player)
    assert other.clone().information_state_string(player) == state.information_state_string(player)


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_resample_keeps_the_information_state(players: int, rules: str) -> None:
    game = pyspiel.load_game(f"python_ascent(players={players},rules={rules})")
    rng = random.Random(f"{players}/{rules}")
    differs = 0
    for _trial in range(4):
        state = _random_position(game, rng, rng.randrange(0, 40))
        if state.is_terminal():
            continue
        player = rng.randrange(players)
        for k in range(2):
            other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(k, 0., 1.))
            _check_resampled(state, other, player)
            differs += str(other) != str(state)
    if players > 1 or rules == "":
        assert differs  # the hidden cards are drawn again, not copied


def test_resample_while_dealing_keeps_the_information_state() -> None:
    game = pyspiel.load_game("python_ascent(players=2,rules=preset:tiny)")
    state = game.new_initial_state()
    for _ in range(7):
        state.apply_action(state.chance_outcomes()[-1][0])
    other = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(3, 0., 1.))
    assert other.information_state_string(1) == state.information_state_string(1)
    assert len(other.history()) == 7 and other.is_chance_node()


def test_state_of_a_played_game_keeps_its_history() -> None:
    game = pyspiel.load_game("python_ascent(players=3,rules=preset:tiny)")
    rng = random.Random(5)
    state = _random_position(game, rng, 9)
    again = og.state_of_world(game, state.game)  # from the Game's deal and moves
    assert again.history() == state.history()
    for p in range(3):
        assert again.information_state_string(p) == state.information_state_string(p)


def _resamples_alike(resampler, state, player: int, seed: int) -> bool:
    """No-peek check: two states ``player`` cannot tell apart (``state`` and one of its
    resamples with other hidden cards) must give the same resampled state from the same
    random numbers."""
    for k in range(20):
        twin = og.resample(state, player, random.Random(seed + 1000 + k))
        if twin.history() != state.history():  # other hidden cards
            break
    assert twin.history() != state.history()
    assert twin.information_state_string(player) == state.information_state_string(player)
    a = resampler(state, player, random.Random(seed))
    b = resampler(twin, player, random.Random(seed))
    return a.history() == b.history() and str(a) == str(b)


@pytest.mark.parametrize("rules", ["preset:tiny", "preset:tiny;discards_seen:own"])
def test_resample_never_reads_a_hidden_card(rules: str) -> None:
    game = pyspiel.load_game(f"python_ascent(players=3,rules={rules})")
    rng = random.Random(11)
    for seed in range(4):
        state = _random_position(game, rng, 2 + seed)
        if state.is_terminal():
            continue
        for player in range(3):
            assert _resamples_alike(og.resample, state, player, seed)


def test_no_peek_check_can_fail() -> None:
    """Control: a resampler that keeps another player's real hand is caught."""
    game = pyspiel.load_game("python_ascent(players=3,rules=preset:tiny)")
    state = _random_position(game, random.Random(2), 5)

    def peeking(st, player, rng):
        # the old resampler's fault: it kept the held-hand logs of every player
        other = og.resample(st, player, rng)
        other.hands_seen = [list(h) for h in st.hands_seen]
        return other

    def clone(st, player, rng):  # the real state itself
        return st.clone()

    assert not _resamples_alike(clone, state, 0, 0)
    a = peeking(state, 0, random.Random(0))
    twin = og.resample(state, 0, random.Random(1000))
    b = peeking(twin, 0, random.Random(0))
    assert a.information_state_string(1) != b.information_state_string(1)


def _stock_ismcts_game(players: int, rules: str = "") -> list[float]:
    from open_spiel.python.algorithms import ismcts, mcts

    name = f"python_ascent(players={players}" + (f",rules={rules})" if rules else ")")
    game = pyspiel.load_game(name)
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    return state.returns()


def test_stock_ismcts_plays_a_tiny_game() -> None:
    """OpenSpiel's ISMCTSBot, default settings (information-state keys, its resampling)."""
    assert _stock_ismcts_game(2, "preset:tiny")[0] in (0.0, 1.0)


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 3])
def test_stock_ismcts_plays_a_whole_game(players: int) -> None:
    returns = _stock_ismcts_game(players)
    assert len(returns) == players and returns[0] in (0.0, 1.0)
