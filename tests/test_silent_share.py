"""``benchmarks.silent_share``: the oracle-worlds diagnostic plays legal games, is not a
bot anyone can pick, and its command line refuses bad input."""

from __future__ import annotations

from benchmarks.silent_share import OracleWorldsUCT, main
from bots import BOT_NAMES
from model.deal import Deal
from model.rules import RuleSet


def test_oracle_plays_a_whole_tiny_game_with_the_true_position():
    """Every move is checked by Game.push; the game ends (win or loss) within the cards."""
    deal = Deal.from_seed(5, 3, RuleSet.tiny())
    outcome, slots, moves = OracleWorldsUCT(iterations=2).play(deal)
    assert outcome in ("win", "loss")
    assert 0 < moves <= len(deal.rules.composition())
    assert slots >= 0


def test_oracle_is_not_a_bot():
    """It peeks by construction: never registered where a bot is picked by name."""
    assert not any("oracle" in name for name in BOT_NAMES)


def test_oracle_command_refuses_bad_seeds(tmp_path, capsys):
    assert main(["oracle", "--out", str(tmp_path), "--seeds", "x-y"]) == 2
    assert capsys.readouterr().err.startswith("error:")
    assert not (tmp_path / "oracle.jsonl").exists()
