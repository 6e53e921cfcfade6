"""Shared pieces of the ``ascent`` command line: error handling, input loading, drawing.

The command line is a thin layer over :mod:`model`; nothing here decides a rule.

* :class:`AscentGroup` turns every error the user can cause into one line
  ``ascent: error: ...`` on standard error and an exit code (see :data:`EXIT_BAD_INPUT` and
  friends), never a traceback.
* :func:`load_source` / :func:`resolve_game` read a POSITION, PLAN or typed-in deal (a file,
  or ``-`` for standard input) through :func:`model.records.load`, or build a seeded deal from
  ``--seed N --players P --rules K=V``.
* :func:`render_game` draws a position as a player sees it: the mountain as a pyramid with
  the peak on top, then the hands, decks and the cards out of the game.

Shared pieces for every command, in their own modules: :mod:`cli.files` (the
bounded reader :func:`~cli.files.read_input`, the whole-or-nothing writer
:func:`~cli.files.write_new_file` and :func:`~cli.files.check_new_file`),
:mod:`cli.options` (option types with ranges and ASCII digits: ``SEED``, ``PLAYERS``...),
:mod:`cli.signals` (SIGINT and SIGTERM both stop a command as Ctrl-C does) and
:func:`emit_answer` (print an answer, write it to a file, never lose it).
"""

from __future__ import annotations

import errno
import json
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import click
from rich.console import Console, Group, RenderableType
from rich.text import Text

from cli.errors import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, PROG, CliError
from cli.files import write_new_file
from cli.signals import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED
from model.cards import Card, parse_card
from model.deal import Deal
from model.errors import AscentError, IllegalMoveError, json_error_text
from model.game import LOSS, WIN, Game, count_text
from model.records import Plan, load
from model.rules import RuleSet

#: errno values of a failed write to standard output (full disk, quota, file size limit).
_WRITE_ERRNOS = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO}

def error_for(exc: BaseException) -> CliError:
    """The :class:`CliError` for an exception the user's input can cause.

    ``AscentError`` (engine: bad card, deal, position, record, rule option, illegal move),
    ``json.JSONDecodeError``, click's usage errors and ``OSError`` give exit code 2;
    ``KeyboardInterrupt`` (Ctrl-C, and SIGTERM through :mod:`cli.signals`) 130. Anything
    else is an internal error (exit 70); its traceback is shown only when the environment
    variable ``ASCENT_DEBUG`` is set.
    """
    if isinstance(exc, CliError):
        return exc
    if isinstance(exc, click.UsageError):
        hint = ""
        if exc.ctx is not None:
            hint = f" (see '{exc.ctx.command_path} --help')"
        text = exc.format_message()
        if hint and text.endswith(".") and not text.endswith(".."):
            text = text[:-1]  # click's sentence goes on with the hint: no stop before it
        return CliError(text + hint, EXIT_BAD_INPUT)
    if isinstance(exc, click.ClickException):
        return CliError(exc.format_message(), exc.exit_code or EXIT_BAD_INPUT)
    if isinstance(exc, json.JSONDecodeError):
        return CliError(json_error_text(exc), EXIT_BAD_INPUT)
    if isinstance(exc, (AscentError, UnicodeError)):
        return CliError(str(exc), EXIT_BAD_INPUT)
    if isinstance(exc, OSError):
        if getattr(exc, "filename", None) is None and exc.errno in _WRITE_ERRNOS:
            _silence_stdout()  # (inputs are read with a file name; this was the output)
            return CliError(f"cannot write standard output ({exc.strerror or exc})", EXIT_BAD_INPUT)
        name = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        return CliError(f"{name}{exc.strerror or exc}", EXIT_BAD_INPUT)
    if isinstance(exc, (KeyboardInterrupt, click.Abort)):
        return CliError("interrupted", EXIT_INTERRUPTED)
    if isinstance(exc, MemoryError):
        return CliError("out of memory (give a smaller input or --memory-limit)", EXIT_BAD_INPUT)
    return CliError(
        f"internal error: {type(exc).__name__}: {exc} (set ASCENT_DEBUG=1 for the traceback)",
        EXIT_INTERNAL,
    )


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that Python's last flush at exit cannot fail
    again ("Exception ignored ... BrokenPipeError" or "No space left on device"). Only when
    ``sys.stdout`` is descriptor 1 (not when a test runner has replaced it)."""
    try:
        if sys.stdout is not None and sys.stdout.fileno() != 1:
            return
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass


def _occupy_closed_std_fds() -> set[int]:
    """Give every closed descriptor 0, 1, 2 a /dev/null, so that no file the command opens
    lands on it (a plan written where a library's log goes); returns the ones that were
    closed. Python has set the matching ``sys.std*`` to ``None`` at start-up."""
    closed = set()
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.add(fd)
    for fd in sorted(closed):
        try:
            new = os.open(os.devnull, os.O_RDWR)
            if new != fd:
                os.dup2(new, fd)
                os.close(new)
        except OSError:
            pass
    return closed


def flush_stdout() -> None:
    """Flush standard output now; a full disk (``> /dev/full``) or another write error
    becomes :class:`CliError` (exit 2), a closed pipe ``BrokenPipeError``."""
    if sys.stdout is None:
        return
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as exc:
        _silence_stdout()
        why = getattr(exc, "strerror", None) or exc.__class__.__name__
        raise CliError(f"cannot write standard output ({why})") from None


class AscentGroup(click.Group):
    """A click group whose commands never end in a traceback.

    Every exception raised while parsing arguments or running a command is turned into one
    line on standard error by :func:`error_for` and the matching exit code. ``--help`` and
    ``--version`` behave as usual; the group alone (no arguments) prints its help (exit 0).
    SIGINT and SIGTERM both stop a command as Ctrl-C does (:mod:`cli.signals`, exit 130).
    A closed standard output is an error before anything runs; a closed standard error
    silences the messages (never sends them to standard output); output that cannot be
    written (``> /dev/full``) is an error (exit 2).
    """

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """Run the command line; in standalone mode (the console script) every error ends
        as one line on standard error and ``sys.exit`` with its code."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        from cli import signals

        old_handlers = signals.install()
        try:
            code = self._run(args, prog_name, complete_var, **extra)
        finally:
            signals.restore(old_handlers)
        sys.exit(code)

    def _run(self, args: Sequence[str] | None, prog_name: str | None,
             complete_var: str | None, **extra: Any) -> int:
        closed = _occupy_closed_std_fds()
        if sys.stderr is None or 2 in closed:
            sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
        try:
            if sys.stdout is None or 1 in closed:
                raise CliError("standard output is closed; nothing could be printed")
            rv = super().main(args, prog_name or PROG, complete_var, False, **extra)
            flush_stdout()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
            try:
                flush_stdout()
            except CliError as err:
                err.show()
                return err.exit_code
            except BrokenPipeError:
                _silence_stdout()
                return EXIT_BROKEN_PIPE
            return code
        except BrokenPipeError:  # `ascent deal --seed 1 | head -1`: the reader left
            _silence_stdout()
            return EXIT_BROKEN_PIPE
        except click.exceptions.NoArgsIsHelpError as exc:  # `ascent` alone: its help
            click.echo(exc.ctx.get_help())
            return EXIT_OK
        except BaseException as exc:  # noqa: BLE001 - the whole point: no traceback
            if os.environ.get("ASCENT_DEBUG") and not isinstance(
                    exc, (AscentError, click.ClickException, KeyboardInterrupt)):
                raise
            err = error_for(exc)
            try:
                if sys.stdout is not None:
                    sys.stdout.flush()
            except (OSError, ValueError):
                _silence_stdout()
            err.show()
            return err.exit_code
        return rv if isinstance(rv, int) else EXIT_OK

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        """click's resolution of the subcommand, then :func:`refuse_repeated_options` on
        its arguments (before anything of it runs)."""
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None and name is not None:
            refuse_repeated_options(ctx, cmd, name, rest)
        return name, cmd, rest

    def invoke(self, ctx: click.Context) -> Any:
        """Invoke the subcommand; an interrupt becomes :class:`CliError` (exit 130)."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # before click turns it into "Aborted!" with a blank line
            raise CliError("interrupted", EXIT_INTERRUPTED) from None
        except BrokenPipeError:  # before click's own EPIPE handling, which exits 1
            _silence_stdout()
            raise SystemExit(EXIT_BROKEN_PIPE) from None


def refuse_repeated_options(parent: click.Context, cmd: click.Command, name: str,
                            args: list[str]) -> None:
    """Refuse an option that takes one value (or an on/off flag) given more than once to
    ``cmd`` (``--seed 1 --seed 2``; click would keep the last): a usage error naming it
    (exit 2). Options declared ``multiple`` (``--rules``, ``--vary``...) and counters may
    repeat. ``cmd``'s arguments are parsed by click's own parser, leniently (a malformed
    command line is left to click's real parse); for a group (``study``, ``daily``) the
    subcommand's arguments are checked in turn."""
    probe = click.Context(cmd, parent=parent, info_name=name, resilient_parsing=True)
    try:
        _, rest, order = cmd.make_parser(probe).parse_args(list(args))
    except click.UsageError:  # pragma: no cover - resilient parsing leaves errors to click
        return
    counts: dict[click.Option, int] = {}
    for param in order:
        if (isinstance(param, click.Option) and not param.multiple and not param.count
                and not param.is_eager):
            counts[param] = counts.get(param, 0) + 1
    for param, n in counts.items():
        if n > 1:
            what = "/".join(param.opts + param.secondary_opts)
            times = "twice" if n == 2 else f"{n} times"
            why = "" if param.is_flag else "it takes one value; "
            raise click.UsageError(f"{what} is given {times}: {why}give it once", ctx=probe)
    if isinstance(cmd, click.Group) and rest:
        sub = cmd.get_command(probe, rest[0])
        if sub is not None:
            refuse_repeated_options(probe, sub, rest[0], rest[1:])


# ---- input ---------------------------------------------------------------------------------


def parse_rules(options: Iterable[str]) -> RuleSet | None:
    """The :class:`RuleSet` of ``--rules K=V`` options, or ``None`` if none were given.

    Raises :class:`~model.errors.RuleOptionError` for an unknown name or value (its message
    lists the valid ones).
    """
    options = list(options)
    return RuleSet.from_options(options) if options else None


def parse_card_option(text: str) -> Card:
    """One card text from the command line (``7r``, ``Cg``, ``B``, ``S``); raises
    :class:`~model.errors.CardSyntaxError` naming the token."""
    return parse_card(text.strip())


@dataclass
class Source:
    """What a POSITION/PLAN argument (or ``--seed``) held.

    ``kind`` is ``"plan"`` (a deal and moves; a bare deal is a plan with no moves) or
    ``"position"``; exactly one of ``plan`` and ``position`` is set. ``name`` says where it
    came from (a path, ``<stdin>`` or ``seed N``).
    """

    kind: str
    name: str
    plan: Plan | None = None
    position: Game | None = None


def _given(name: str) -> bool:
    """Whether the option ``name`` of the running command was given by the user (not its
    default); ``True`` outside a click command or for an unknown name."""
    ctx = click.get_current_context(silent=True)
    if ctx is None or name not in ctx.params:
        return True
    source = ctx.get_parameter_source(name)
    return source not in (None, click.core.ParameterSource.DEFAULT,
                          click.core.ParameterSource.DEFAULT_MAP)


def load_source(path: str | None, seed: int | None = None, players: int | None = None,
                rule_options: Sequence[str] = ()) -> Source:
    """Read ``path`` (``-`` is standard input) with :func:`model.records.load`, or build the
    deal of ``seed`` for ``players`` players (``None``: 1).

    ``rule_options`` (``K=V``) apply to a seeded deal and to a typed-in deal; a plan or a
    position carries its own rules, so giving both is an error. ``players`` applies to
    ``--seed`` only: given with a file it is an error (a file has its own players). Raises
    :class:`CliError` for a missing or doubled source, :class:`~model.errors.AscentError`
    for bad content.
    """
    if path is not None and seed is not None:
        raise CliError("give a file or --seed, not both")
    if path is not None and players is not None and _given("players"):
        raise CliError("--players applies to --seed; a file has its own players")
    rules = parse_rules(rule_options)
    if path is None:
        if seed is None:
            raise CliError("give a POSITION or PLAN file (or - for standard input), or --seed N")
        deal = Deal.from_seed(seed, players or 1, rules or RuleSet.standard())
        return Source("plan", f"seed {seed}", plan=Plan(deal))
    name = "<stdin>" if path == "-" else path
    kind, obj = load(path, rules)
    if rules is not None and kind != "deal":
        raise CliError(f"{name}: a {kind} carries its own rules; --rules applies to --seed "
                       "and to typed-in deals")
    if kind == "position":
        return Source("position", name, position=obj)
    if kind == "deal":
        return Source("plan", name, plan=Plan(obj))
    return Source("plan", name, plan=obj)


def resolve_game(source: Source, step: int | None = None) -> Game:
    """The position of ``source``: a position as it is; a plan after its first ``step``
    moves (all of them by default).

    Raises :class:`CliError` if ``step`` is given for a position, lies outside
    ``0..len(moves)``, or passes an illegal move of the plan (naming the move and ruling).
    """
    if source.kind == "position":
        if step is not None:
            raise CliError(f"{source.name}: --step applies to a plan, and this is a position")
        assert source.position is not None
        return source.position
    plan = source.plan
    assert plan is not None
    n = len(plan.moves)
    if step is None:
        step = n
    elif not 0 <= step <= n:
        raise CliError(f"{source.name}: --step must be from 0 to {n} (the plan has {n} moves), not {step}")
    rep = plan.replay(step)
    if rep.error is not None:
        raise CliError(
            f"{source.name}: {describe_illegal(plan, rep.error)}; "
            f"the plan is legal up to --step {rep.legal_moves}"
        )
    return rep.game


def load_played_record(record: str, command: str) -> tuple[str, Plan]:
    """The name and game record of ``record`` (a path, or ``-``) that ``command``
    (``analyse``, ``review``) reads, replayed: :class:`CliError` for a file that is not a
    game record or a record with an illegal move."""
    src = load_source(record)
    if src.kind != "plan" or src.plan is None:
        raise CliError(f"{src.name}: {command} needs a game record (a deal or a position, and "
                       f"its moves), not a {src.kind}")
    plan = src.plan
    rep = plan.replay()
    if rep.error is not None:
        raise CliError(f"{src.name}: {describe_illegal(plan, rep.error)}")
    return src.name, plan


def describe_illegal(plan: Plan, error: IllegalMoveError) -> str:
    """``move N (T.. P.. place 7r → row 1 slot 4): illegal (R5): reason`` for the first
    illegal move of ``plan`` found by :meth:`~model.records.Plan.replay`."""
    n = error.move_number or 0
    move = plan.moves[n - 1] if 1 <= n <= len(plan.moves) else None
    if move is None:
        return str(error)
    before = plan.replay(n - 1).game
    return f"move {n} ({before.move_text(move)}): illegal ({error.ruling}): {error.reason}"


# ---- drawing -------------------------------------------------------------------------------

#: rich styles of the colour letters (R1).
COLOUR_STYLES = {"r": "bold red", "g": "bold green", "b": "bold blue", "y": "bold yellow",
                 "p": "bold magenta"}
BRIDGE_STYLE = "bold black on white"
SUMMIT_STYLE = "bold yellow on grey23"
EMPTY_STYLE = "dim"
EMPTY_TEXT = "··"
CELL = 3  # widest card text: 12g


def card_style(card: Card) -> str:
    """The rich style of ``card``: its colour for Ascent cards, its colour reversed for a
    Campfire, distinct styles for Bridge and Summit."""
    if card.is_ascent:
        return COLOUR_STYLES.get(card.colour, "bold")
    if card.is_campfire:
        return f"{COLOUR_STYLES.get(card.colour, 'bold')} reverse"
    return BRIDGE_STYLE if card.is_bridge else SUMMIT_STYLE


def card_text(card: Card) -> Text:
    """``card``'s text (``7r``, ``Cg``, ``B``, ``S``) in its style."""
    return Text(card.text, style=card_style(card))


def cards_text(cards: Iterable[Card], empty: str = "-") -> Text:
    """Cards side by side, each in its style; ``empty`` if there are none."""
    cards = list(cards)
    if not cards:
        return Text(empty, style=EMPTY_STYLE)
    return Text(" ").join(card_text(c) for c in cards)


def _cell(card: Card | None) -> Text:
    if card is None:
        return Text(EMPTY_TEXT.rjust(CELL), style=EMPTY_STYLE)
    text = card.text.center(CELL) if len(card.text) == 1 else card.text.rjust(CELL)
    return Text(text, style=card_style(card))


GOAT_MARK = "*"


def _goat_cell(card: Card | None, goats: int) -> Text:
    """A cell of the mountain with goats (G1): the card, then ``*`` for one goat or ``*N``
    for N goats on it, padded to 5 characters so that the pyramid still lines up."""
    cell = _cell(card)
    mark = "" if not goats else GOAT_MARK if goats == 1 else f"{GOAT_MARK}{goats}"
    cell.append(mark.ljust(2), style="bold")
    return cell


def render_mountain(game: Game) -> Text:
    """The mountain as a pyramid: the peak on top, each row centred over the row below (each
    slot sits between the two slots that support it, R3), row numbers in the left margin,
    empty slots as dim ``··``. With ``goats=on`` each card carrying goats is marked ``*``
    (one goat) or ``*N`` (N goats), G1."""
    rules = game.rules
    widest = rules.row_length(1)
    if rules.goats_on:
        from collections import Counter

        goats = Counter(game.goats)
        lines = Text()
        for row in range(rules.peak_row, 0, -1):
            length = rules.row_length(row)
            label = f"{row:>2} peak │ " if row == rules.peak_row else f"{row:>2}      │ "
            line = Text()
            line.append(label, style="dim")
            line.append(" " * (3 * (widest - length)))
            cells = [_goat_cell(game.card_at(row, s), goats[(row, s)])
                     for s in range(1, length + 1)]
            line.append_text(Text(" ").join(cells))
            if row != 1:
                line.append("\n")
            lines.append_text(line)
        return lines
    lines = Text()
    for row in range(rules.peak_row, 0, -1):
        length = rules.row_length(row)
        label = f"{row:>2} peak │ " if row == rules.peak_row else f"{row:>2}      │ "
        line = Text()
        line.append(label, style="dim")
        line.append(" " * ((CELL + 1) // 2 * (widest - length)))
        cells = [_cell(game.card_at(row, s)) for s in range(1, length + 1)]
        line.append_text(Text(" ").join(cells))
        if row != 1:
            line.append("\n")
        lines.append_text(line)
    return lines


def outcome_text(game: Game) -> str | None:
    """``win``/``loss`` sentence for a finished game, ``None`` while it goes on (R10, R12)."""
    outcome = game.outcome()
    if outcome == WIN and game.rules.goats_on:
        where = "on the Summit" if game.rules.goat_top == "summit" else f"in row {game.rules.rows}"
        return (f"won: the Summit stands on the peak and every goat {where} after "
                f"{game.turn} turns")
    if outcome == WIN:
        return f"won: the Summit stands on the peak after {count_text(game.turn, 'turn')}"
    if outcome == LOSS:
        return (f"lost after {count_text(game.turn, 'turn')}: player {game.to_move + 1} can neither play "
                "a card nor discard 2")
    return None


def render_game(game: Game, title: str | None = None) -> RenderableType:
    """A rich renderable of the whole position: the mountain (see :func:`render_mountain`),
    then one line per player (hand in colour, cards left in the deck, ``▶`` marks the player
    to move), the cards out of the game, slots filled, the turn and the outcome if over.

    Printed to something that is not a terminal it is plain text (rich drops the styles).
    """
    rules = game.rules
    parts: list[RenderableType] = []
    head = Text(title or "Mountain", style="bold")
    if rules.changed_options() or rules.preset_name != "standard":
        head.append(f"  (rules: {rules.describe()})", style="dim")
    parts.append(head)
    parts.append(render_mountain(game))
    parts.append(Text(""))
    over = game.outcome()
    for p in range(game.players):
        mark = "▶" if p == game.to_move and over is None else " "
        line = Text(f"{mark} P{p + 1}  hand: ")
        line.append_text(cards_text(game.hands[p], empty="(empty)"))
        line.append(f"   deck: {len(game.decks[p])}", style="dim")
        parts.append(line)
    parts.append(Text(
        f"Out of the game: {count_text(len(game.out), 'card')} · "
        f"mountain: {game.filled_slots()} of {rules.mountain_slots} slots filled",
        style="dim",
    ))
    if rules.goats_on:
        top = rules.goat_top_row
        at_top = sum(1 for r, _ in game.goats if r >= top)
        where = "the Summit" if rules.goat_top == "summit" else f"row {top}"
        parts.append(Text(
            f"Goats: {len(game.goats)} on the mountain, {at_top} at the top ({where}); "
            f"{GOAT_MARK} marks a goat, {GOAT_MARK}N N goats on one card", style="dim"))
    result = outcome_text(game)
    if result is not None:
        style = "bold green" if over == WIN else "bold red"
        nobody = " · no player to move" if over == WIN else ""
        parts.append(Text(f"Game over: {result}{nobody}", style=style))
    else:
        parts.append(Text(f"Turn {game.turn + 1}: player {game.to_move + 1} to move "
                          f"({game.turn} moves made)"))
    return Group(*parts)


class _Console(Console):
    """rich's console, ending on a closed pipe with the same exit code as the rest of the CLI
    (rich itself exits 1, which means "illegal move" here)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise SystemExit(EXIT_BROKEN_PIPE)


def console() -> Console:
    """A rich console on the current standard output (plain text when it is not a
    terminal); long lines are not wrapped, so card lists stay on one line. Written to a file
    or a pipe, tables are 200 columns wide (not rich's 80, which cut their cells short)
    unless ``COLUMNS`` says otherwise."""
    out = _Console(file=sys.stdout, soft_wrap=True, highlight=False)
    if not out.is_terminal and "COLUMNS" not in os.environ:
        out.width = 200
    return out


# ---- shared click options ------------------------------------------------------------------

def source_options(f: Callable) -> Callable:
    """``SOURCE`` argument plus ``--seed``, ``--players``, ``--rules``, ``--step`` (with the
    shared option types of :mod:`cli.options`)."""
    from cli.options import PLAYERS, SEED, STEP

    f = click.option("--step", "step", type=STEP, default=None, metavar="K",
                     help="For a PLAN: the position after its first K moves (default: all).")(f)
    f = click.option("--rules", "rule_options", multiple=True, metavar="K=V",
                     help="Rule option for --seed or a typed-in deal (repeatable), "
                          "e.g. --rules preset=tiny.")(f)
    f = click.option("--players", type=PLAYERS, default=None, metavar="P",
                     help="Players (1-5) with --seed (default 1).")(f)
    f = click.option("--seed", type=SEED, default=None, metavar="N",
                     help="Instead of a file: the start of deal number N.")(f)
    f = click.argument("source", metavar="[POSITION|PLAN]", required=False)(f)
    return f


def emit_answer(printed: Callable[[], None], output: str | None, record_text: str | None) -> None:
    """Deliver an answer without ever losing it: write ``record_text`` to ``output`` with
    :func:`cli.files.write_new_file` (whole or not at all, never over an existing file),
    then call ``printed()`` to print the answer on standard output. If the file cannot be
    written, the answer is still printed, then :class:`CliError` (exit 2) says so."""
    failure = None
    if output is not None and record_text is not None:
        try:
            write_new_file(output, record_text)
        except FileExistsError:
            failure = f"{output}: exists (created meanwhile); it was not written over"
        except OSError as exc:
            why = exc.strerror or exc.__class__.__name__
            failure = f"{output}: cannot write ({why})"
    printed()
    if failure is not None:
        flush_stdout()
        raise CliError(f"{failure}; the answer is on standard output only")
