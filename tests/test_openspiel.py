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
