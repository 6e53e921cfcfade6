"""The ``ascent`` command line (console script ``ascent = cli.main:main``).

A thin click layer over :mod:`model`: each command lives in its own module and is
registered here with ``main.add_command``. Errors are one line on standard error, never a
traceback (see :class:`cli.common.AscentGroup`).
"""

from __future__ import annotations

import click

from cli.analyse import analyse
from cli.common import AscentGroup
from cli.daily import daily
from cli.deal import deal
from cli.hint import hint
from cli.legal import legal
from cli.replay import replay
from cli.review import review
from cli.serve import serve
from cli.show import show
from cli.simulate import simulate
from cli.solve import solve
from cli.study import study
from cli.variants import variants
from model.version import VERSION
from solver.exhaustive import core_status


@click.group(name="ascent", cls=AscentGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(VERSION, "--version", prog_name="ascent",
                      message="%(prog)s %(version)s · search: " + core_status())
def main() -> None:
    """Exhaustive solver and analysis tool for Tranquility: The Ascent.

    Cards are written 7r 12g 3b (Ascent cards: value and colour r/g/b), Cr Cg Cb
    (Campfires), B (Bridge) and S (Summit). A POSITION or PLAN is a JSON file (or -
    for standard input); a deal may also be typed in as text, one deck per line.

    \b
    Examples:
      ascent deal --seed 1 --players 2 > seed1.txt
      ascent solve --deal seed1.txt --record plan.json
      ascent show plan.json --step 3 --save-position position.json
      ascent legal --seed 1 --players 2 --explain 7r
      ascent legal position.json --explain 7r
      ascent replay plan.json
      ascent solve --seed 1 --objective waste --time-limit 1

    Inputs (files or standard input) are limited to 8 MB. Exit codes: 0 ok, 1 an
    illegal move in a replayed plan, 2 bad input (or output that cannot be written),
    130 interrupted (Ctrl-C or SIGTERM; what was found is still printed), 141 the
    output pipe closed early.
    """


main.add_command(deal)
main.add_command(show)
main.add_command(legal)
main.add_command(replay)
main.add_command(solve)
main.add_command(hint)
main.add_command(analyse)
main.add_command(review)
main.add_command(serve)
main.add_command(study)
main.add_command(simulate)
main.add_command(variants)
main.add_command(daily)


if __name__ == "__main__":  # pragma: no cover
    main()
