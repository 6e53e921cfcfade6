"""Bots that play the real game, one seat each: ``greedy``, ``sampling`` and ``determinized``
see only the observation of the player to move (:mod:`model.observation`, ruling V1);
``best`` is the strongest silent bot measured (today ``uct``, see :data:`BEST`), so that
scripts and the web page need not know its name; ``team`` searches over the greedy
blueprint, every seat of its rollouts silent (:mod:`bots.team`); ``uct`` is information-set
MCTS over the seat's own decisions on the same blueprint (:mod:`bots.uct`); ``adhoc`` is
``uct`` with a partner model inferred from the partners' moves (:mod:`bots.partner_model`); ``cheat`` is the
open-hand solver, the upper bound; ``plausible`` and ``noisy`` are greedy with a share of
other moves, stand-ins for people (:mod:`bots.people`); ``openspiel-ismcts`` (optional extra ``.[openspiel]``) is
OpenSpiel's information-set MCTS on the game registered in :mod:`bots.openspiel_game`.

:func:`bots.base.play_deal` plays a deal with one bot in every seat, :func:`bots.base.play_table`
with a bot per seat (a mixed table); :func:`make_bot` builds a bot by name."""

from __future__ import annotations

from typing import Any

from bots.base import Bot, GameResult, play_deal, play_table

BOT_NAMES = ("greedy", "sampling", "determinized", "best", "team", "uct", "adhoc",
             "plausible", "noisy", "cheat", "openspiel-ismcts")

#: the bot that ``best`` names: the strongest silent bot of docs/results.md (``uct`` won
#: more than ``determinized`` at every player count on the same 200 fresh deals)
BEST = "uct"


def make_bot(name: str, **params: Any) -> Bot:
    """The bot called ``name`` (one of :data:`BOT_NAMES`) with its parameters (``sampling``:
    ``worlds``, ``seconds``, ``seed``...; ``determinized``: ``worlds``, ``candidates``,
    ``seconds``, ``seed``...; ``best``: those of the bot :data:`BEST` names; ``team``: ``worlds``, ``candidates``,
    ``beliefs``, ``tries``, ``seed``; ``uct``: ``iterations``, ``candidates``,
    ``depth_candidates``, ``exploration``, ``beliefs``, ``pool``, ``flat``, ``max_iterations``,
    ``close``, ``departures``, ``departure_top``, ``seed``;
    ``adhoc``: ``uct`` with the partner model on (``model=True``) and the same parameters;
    ``plausible``: ``rate``, ``top``, ``seed``; ``noisy``: ``rate``, ``seed``; ``cheat``:
    ``time_limit``; ``openspiel-ismcts``: ``simulations``, ``seed``). Raises ``ValueError``
    for an unknown name and ``ImportError`` when ``openspiel-ismcts`` is asked for without the
    extra installed."""
    if name == "greedy":
        from bots.greedy import GreedyBot

        return GreedyBot()
    if name == "sampling":
        from bots.sampling import SamplingBot

        return SamplingBot(**params)
    if name == "best":
        return make_bot(BEST, **params)
    if name == "determinized":
        from bots.determinized import DeterminizedBot

        return DeterminizedBot(**params)
    if name == "team":
        from bots.team import TeamBot

        return TeamBot(**params)
    if name == "uct":
        from bots.uct import UctBot

        return UctBot(**params)
    if name == "adhoc":
        from bots.uct import UctBot

        return UctBot(**{"model": True, **params})
    if name == "plausible":
        from bots.people import PlausibleBot

        return PlausibleBot(**params)
    if name == "noisy":
        from bots.people import NoisyBot

        return NoisyBot(**params)
    if name == "cheat":
        from bots.cheat import CheatBot

        return CheatBot(**params)
    if name == "openspiel-ismcts":
        from bots.openspiel_bot import OpenSpielISMCTSBot

        return OpenSpielISMCTSBot(**params)
    raise ValueError(f"unknown bot {name!r}; valid bots: {', '.join(BOT_NAMES)}")


__all__ = ["BEST", "BOT_NAMES", "Bot", "GameResult", "make_bot", "play_deal", "play_table"]
