"""``ascent deal``: a seeded deal in card text or as a JSON record (R13)."""

from __future__ import annotations

import click

from cli.common import parse_rules
from cli.options import PLAYERS, SEED
from model.cards import format_cards
from model.deal import Deal
from model.game import count_text
from model.records import Plan, dumps
from model.rules import RuleSet


def deal_text(deal: Deal) -> str:
    """The deal as text that :func:`model.records.parse_deal_text` reads back: a comment
    line, a ``rules:`` line when the rules are not the standard ones, then one line per
    player's deck, top card first: ``P1: 12b 10r 9b ...``."""
    rules = deal.rules
    seed = f"seed {deal.seed}, " if deal.seed is not None else ""
    lines = [f"# ascent deal: {seed}{deal.players} player{'s' if deal.players > 1 else ''}, "
             f"{count_text(sum(len(d) for d in deal.decks), 'card')}, decks top card first"]
    if rules != RuleSet.standard():
        lines.append("rules: " + " ".join([f"preset={rules.preset_name}", *rules.changed_options()]))
    lines += [f"P{p + 1}: {format_cards(d)}".rstrip() for p, d in enumerate(deal.decks)]
    return "\n".join(lines)


@click.command()
@click.option("--seed", type=SEED, required=True, metavar="N", help="Deal number (0 to 2**64-1).")
@click.option("--players", type=PLAYERS, default=1, show_default=True, metavar="P",
              help="Players, 1 to 5.")
@click.option("--rules", "rule_options", multiple=True, metavar="K=V",
              help="Rule option (repeatable), e.g. --rules dealing=blocks or --rules preset=tiny.")
@click.option("--json", "as_json", is_flag=True,
              help='Print the game record {"deal": ..., "rules": ..., "moves": []} instead.')
def deal(seed: int, players: int, rule_options: tuple[str, ...], as_json: bool) -> None:
    """Print deal number N: each player's deck, top card first.

    The shuffle is portable (SplitMix64 and Fisher-Yates, see docs/rules.md), so deal N is
    the same everywhere. The text form can be saved and given back to show, legal or
    replay; the --json form is a plan with no moves yet.

    \b
    Examples:
      ascent deal --seed 1
      ascent deal --seed 7 --players 3 > seed7.txt
      ascent deal --seed 7 --players 3 --json > seed7.json
      ascent deal --seed 2 --rules preset=tiny --rules dealing=blocks
    """
    rules = parse_rules(rule_options) or RuleSet.standard()
    the_deal = Deal.from_seed(seed, players, rules)
    click.echo(dumps(Plan(the_deal).to_json()) if as_json else deal_text(the_deal))
