"""A fuzz test over the readers and the options of the command line.

Hypothesis draws a command, options with odd values (look-alike digits, huge, negative,
non-finite, empty, unknown) and an input on standard input (JSON fragments, card text,
bytes); the command runs in-process (click's CliRunner). Whatever it is given, it ends with
an exit code of 0, 1, 2, 130 or 141 and never a traceback (an internal error, exit 70, is a
failure). Solves are kept small by a node limit appended last.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import main
from tests.strategies import examples

ALLOWED = {0, 1, 2, 130, 141}

NUMBERS = st.sampled_from([
    "0", "1", "2", "5", "6", "-1", "٣", "１", "1_000", "+1", " 1", "1e3", "2.5", "nan", "inf",
    "-inf", "none", "", "18446744073709551615", "18446744073709551616", "2147483647",
    "2147483648", "9" * 50, "0x10", "1" * 5000,
]) | st.integers(-10, 10**20).map(str) | st.text(max_size=6)

OPTIONS = ["--seed", "--players", "--step", "--rules", "--time-limit", "--node-limit",
           "--memory-limit", "--workers", "--solver-seed", "--explain", "--objective",
           "--deal", "--record", "--picture", "--save-position", "--json", "--no-timing",
           "--bogus"]

RULES = st.sampled_from(["preset=tiny", "rows=3", "rows=Infinity", "rows=٣", "dealing=blocks",
                         "x", "=", "rows=99999999999999999999", "preset=standard"])

CARDS = st.sampled_from(["7r", "12g", "Cg", "B", "S", "P1:", "P2:", "rules: preset=tiny",
                         "13x", "1" * 40 + "r", "٣r", "#", "\ufeff", ",", "\n"])


@st.composite
def stdin_text(draw) -> str | bytes:
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return " ".join(draw(st.lists(CARDS, max_size=30)))
    if kind == 1:
        value = draw(st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=5)
            | st.sampled_from(["7r", "S", "Infinity"]),
            lambda c: st.lists(c, max_size=4) | st.dictionaries(
                st.sampled_from(["deal", "decks", "rules", "moves", "position", "verdict",
                                 "best_progress", "players", "plan", "mountain", "hands",
                                 "to_move", "kind", "card", "row", "slot", "discard"]),
                c, max_size=5),
            max_leaves=12))
        return json.dumps(value)
    if kind == 2:
        return draw(st.text(max_size=60))
    if kind == 3:
        return draw(st.binary(max_size=60))
    return '{"decks":[["7r"]],"rules":{"rows":' + draw(st.sampled_from(
        ["Infinity", "-Infinity", "NaN", "1e400", "3", "[]", '"3"'])) + "}}"


@st.composite
def command_line(draw) -> list[str]:
    cmd = draw(st.sampled_from(["deal", "show", "legal", "replay", "solve", "nope"]))
    args = [cmd]
    if cmd in ("show", "legal", "replay") and draw(st.booleans()):
        args.append("-")
    for _ in range(draw(st.integers(0, 4))):
        opt = draw(st.sampled_from(OPTIONS))
        if cmd == "solve" and opt in ADDED["solve"]:
            continue  # given below (a repeated option is refused)
        args.append(opt)
        if opt in ("--json", "--no-timing", "--bogus"):
            continue
        if opt == "--rules":
            args.append(draw(RULES))
        elif opt == "--explain":
            args.append(draw(CARDS))
        elif opt == "--objective":
            args.append(draw(st.sampled_from(["none", "waste", "turns", "x"])))
        elif opt == "--deal":
            args.append("-")
        elif opt in ("--record", "--picture", "--save-position"):
            args.append(draw(st.sampled_from(["", "/", "/nonexistent/x", "."])))
        else:
            args.append(draw(NUMBERS))
    if cmd == "solve":  # keep every solve small
        args += ["--node-limit", "300", "--time-limit", "2", "--solver", "dfs",
                 "--memory-limit", "128"]
    return args


def invoke_checked(args: list[str], text: str):
    """Run ``ascent ARGS`` in-process with ``text`` on standard input; assert an allowed exit
    code, no traceback, and exactly one ``ascent: error:`` line for bad input (exit 2)."""
    result = CliRunner().invoke(main, args, input=text)
    assert result.exit_code in ALLOWED, (args, result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), (args, repr(result.exception))
    if result.exit_code == 2:
        err = result.stderr.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("ascent: error: "), (args, result.stderr)
    return result


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(command_line(), stdin_text())
def test_no_input_ends_in_a_traceback_or_an_odd_exit_code(args, text):
    invoke_checked(args, text)


# ---- the analysis, study, bot and web commands (hint, analyse, variants, serve, study,
# simulate): their options and file inputs. Nothing here starts a Dask cluster or a server:
# study and simulate always get an option that fails before any work (a missing --db for
# study run and report, --workers with --scheduler for simulate) or --help; serve only ever
# gets values that fail before it binds (or --help).

FILES = st.sampled_from(["-", "", "/", ".", "/nonexistent/x", "/dev/null"])
SECONDS_TEXT = st.sampled_from(["nan", "-1", "0", "inf", "1e999", "٣", "１", "none", "0.5",
                                "1e3", "", "+1", "1_0"])
LISTS = st.sampled_from(["1-5", "1,3", "5-4", "0-2", "١-٢", "1-", "-1", ",", "", "1-99999999999",
                         "0-18446744073709551615", "9223372036854775808", "1,,2", " 1 - 2 ",
                         "1-2-3", "x"])

NEW_OPTIONS = {
    "hint": ["--seed", "--players", "--step", "--rules", "--objective", "--time-limit", "--all",
             "--memory-limit", "--json"],
    "analyse": ["--objective", "--time-per-move", "--memory-limit", "--json"],
    "variants": ["--seed", "--deal", "--players", "--rules", "--objective", "--vary",
                 "--time-limit", "--memory-limit", "--json"],
    "serve": ["--port", "--archive", "--log-level", "--host"],
    "study run": ["--players", "--deals", "--seeds", "--rules", "--vary", "--each", "--objective",
                  "--time-limit", "--table-limit", "--workers", "--quiet"],
    "study report": ["--by", "--json", "--markdown", "--only"],
    "simulate": ["--bot", "--players", "--deals", "--seeds", "--rules", "--worlds", "--seconds",
                 "--candidates", "--horizon", "--simulations", "--bot-seed", "--time-limit",
                 "--records", "--quiet"],
}
FLAGS = {"--all", "--json", "--each", "--quiet", "--markdown"}
#: Options each command line gets at its end (short solves, files refused early): not drawn.
ADDED = {"solve": {"--node-limit", "--time-limit", "--memory-limit"},
         "hint": {"--time-limit", "--memory-limit"}, "variants": {"--time-limit", "--memory-limit"},
         "analyse": {"--time-per-move", "--memory-limit"}, "serve": {"--archive"}}


@st.composite
def new_command_line(draw) -> list[str]:
    cmd = draw(st.sampled_from(sorted(NEW_OPTIONS)))
    args = cmd.split()
    if cmd in ("hint", "analyse", "variants") and draw(st.booleans()):
        args.append(draw(FILES))
    for _ in range(draw(st.integers(0, 4))):
        opt = draw(st.sampled_from(NEW_OPTIONS[cmd]))
        if opt in ADDED.get(cmd, ()):
            continue  # given below (a repeated option is refused)
        args.append(opt)
        if opt in FLAGS:
            continue
        if opt in ("--time-limit", "--time-per-move", "--seconds"):
            args.append(draw(SECONDS_TEXT | NUMBERS))
        elif opt in ("--players", "--seeds") and cmd in ("study run", "simulate"):
            args.append(draw(LISTS))
        elif opt == "--rules":
            args.append(draw(RULES))
        elif opt == "--objective":
            args.append(draw(st.sampled_from(["none", "waste", "turns", "x", "none,waste"])))
        elif opt == "--vary":
            args.append(draw(st.sampled_from(["bridge_replace_cost", "rulings", "rows=1,2",
                                              "x=1", "dealing=", "="])))
        elif opt in ("--deal", "--archive", "--records"):
            args.append(draw(FILES))
        elif opt == "--bot":
            args.append(draw(st.sampled_from(["greedy", "cheat", "oracle", ""])))
        elif opt == "--log-level":
            args.append(draw(st.sampled_from(["info", "loud"])))
        elif opt == "--host":
            args.append(draw(st.sampled_from(["", "bad host", "999.1.1.1"])))
        elif opt in ("--by", "--only"):
            args.append(draw(st.sampled_from(["players", "nope", "seed=1-2", "seed=١", "x", ""])))
        else:
            args.append(draw(NUMBERS))
    if cmd == "hint":  # short solves
        args += ["--time-limit", "0.1", "--memory-limit", "128"]
    elif cmd == "variants":  # short solves, few rule sets
        args += ["--time-limit", "0.05", "--memory-limit", "128"]
        if "--vary" not in args:
            args += ["--vary", "bridge_replace_cost"]
    elif cmd == "analyse":
        args += ["--time-per-move", "0.05", "--memory-limit", "128"]
    elif cmd == "serve":
        args += ["--archive", "/nonexistent/archive"]  # refused before it binds
    elif cmd == "study run":
        args += ["--db", "/nonexistent/folder/x.db"]  # refused before a cluster starts
    elif cmd == "study report":
        args += ["--db", "/nonexistent/x.db"]
    elif cmd == "simulate":
        args += ["--workers", "1", "--scheduler", "tcp://127.0.0.1:1"]  # refused: not both
    if draw(st.integers(0, 9)) == 0:
        args.append("--help")
    return args


@settings(max_examples=examples(200), deadline=None, suppress_health_check=list(HealthCheck))
@given(new_command_line(), stdin_text())
def test_the_new_commands_refuse_bad_input_in_one_line(args, text):
    result = invoke_checked(args, text)
    if args[0] in ("serve", "study", "simulate") and "--help" not in args:
        assert result.exit_code != 0, (args, result.output)  # nothing started


@pytest.mark.parametrize("args, needle", [
    (["hint", "--seed", "１"], "--seed"),
    (["hint", "--seed", "1", "--players", "٢"], "--players"),
    (["hint", "--seed", "1", "--time-limit", "nan"], "--time-limit"),
    (["hint", "--seed", "1", "--time-limit", "-1"], "--time-limit"),
    (["hint", "--seed", "1", "--memory-limit", "99999999999999999999"], "--memory-limit"),
    (["analyse", "-", "--time-per-move", "nan"], "--time-per-move"),
    (["analyse", "-", "--time-per-move", "1e999"], "--time-per-move"),
    (["analyse", "-", "--memory-limit", "٢٠٤٨"], "--memory-limit"),
    (["serve", "--port", "٨٠٠٠"], "--port"),
    (["serve", "--port", "-1"], "--port"),
    (["simulate", "--bot", "greedy", "--deals", "1", "--bot-seed", "-1"], "--bot-seed"),
    (["simulate", "--bot", "greedy", "--deals", "1", "--worlds", "٢"], "--worlds"),
    (["simulate", "--bot", "greedy", "--deals", "1", "--seconds", "nan"], "--seconds"),
    (["simulate", "--bot", "greedy", "--seeds", "0-99999999999999"], "--seeds"),
    (["simulate", "--bot", "greedy", "--players", "1-٥", "--deals", "1"], "--players"),
])
def test_the_new_commands_use_the_shared_option_types(args, needle):
    """Look-alike digits, non-finite or negative seconds and huge numbers are refused by the
    option types of cli/options.py, in one line, before any work."""
    result = CliRunner().invoke(main, args, input="")
    assert result.exit_code == 2, (args, result.output)
    err = result.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("ascent: error: ") and needle in err[0], err
