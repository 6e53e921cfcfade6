"""``ascent simulate``: bots play many deals on the study machinery; win rates, the open-hand
verdict on the same deals and the price of silence.

One task per (bot and its parameters, partners and theirs, rule set, player count, seed). A
task (:func:`play_task`, run on Dask workers by :func:`studies.runner.run_tasks`) plays the
deal with the bot in every seat, or with ``partners`` the bot in seat 1 and the partners' bot
in every other seat (a mixed table, :func:`bots.base.play_table`), and, unless the bot is ``cheat``
itself or ``open_hand`` is off, solves the same deal with every card known
(:func:`solver.solve`, ``open_time_limit`` seconds): the open-hand verdict the bot is paired
with. Its row holds the outcome, slots filled, cards out, turns, seconds, the open-hand verdict
and the game record (JSON, replayable by ``ascent replay``). Rows live in an SQLite table
``games`` (WAL; resumable: a stored key is not played again).

Who sat where: the ``bot`` and ``params`` columns are seat 1's; the record's ``seats`` holds
every seat's ``{"bot", "params"}``, seat 1 first, and the ``task`` column (JSON) the
``partners`` and ``partner_params`` of a mixed table (``json_extract(task, '$.partners')``;
NULL when the bot sat in every seat). The columns are those of databases written before mixed
tables, so an old database is read and resumed as it is.

:func:`report` turns the rows of a run into one line per player count:

* ``games``, ``won``, ``win`` (share) and its 95 % Wilson interval ``interval``;
* ``slots_at_loss`` (mean slots filled in lost games, peak included), ``out_at_win`` (mean cards
  out of the game at a win), ``seconds_per_game`` (mean wall time, bot's thinking included);
* ``open_won``, ``open_unknown``, ``open_win`` with its interval (unknowns counted both ways);
* ``price``: the price of silence, open-hand win share − bot win share, paired deal by deal
  (mean of ``open_won_i − bot_won_i``, an unknown open-hand verdict counted as not won), with
  its 95 % interval ``price_interval``: Newcombe's hybrid score interval for paired shares
  (1998, method 10; :func:`bots.mistakes.paired_interval`, the review's), the deals the pairs.
  It stays inside [-1, 1] and has width on small runs, where a normal interval of the paired
  differences has variance 0 (one deal, or every deal alike); ``silent_share``: bot wins over
  open-hand wins (the goal is at least one half); ``price_if_unknown_won`` and
  ``silent_share_if_unknown_won``: the same with every unknown open-hand verdict counted as a
  win (the other end of the unknowns).
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any, Iterable, Sequence

from model.deal import Deal
from model.files import write_new_text
from model.records import dumps
from model.rules import RuleSet

TABLE = "games"
COLUMNS = {
    "bot": "TEXT", "params": "TEXT", "rules": "TEXT", "players": "INTEGER", "seed": "INTEGER",
    "outcome": "TEXT", "slots": "INTEGER", "out_cards": "INTEGER", "turns": "INTEGER",
    "seconds": "REAL", "open_verdict": "TEXT", "record": "TEXT", "error": "TEXT",
}


def rules_json(rules: RuleSet) -> str:
    """The full rule set as canonical JSON (the key part of a task)."""
    return json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))


def parse_partners(spec: str) -> tuple[str, dict[str, Any]]:
    """The partners' bot and its parameters from ``NAME`` or ``NAME:K=V,K=V`` (e.g.
    ``plausible``, ``noisy:rate=0.1``, ``uct:iterations=400``): a value reads as a whole
    number, a number, ``true``/``false``, or else text. The bot is built once to check it
    (:func:`bots.make_bot`). Raises ``ValueError`` with a one-line reason for an unknown bot,
    a malformed ``K=V``, or a parameter the bot does not take or refuses."""
    from bots import BOT_NAMES, make_bot

    name, _, rest = spec.strip().partition(":")
    if name not in BOT_NAMES:
        raise ValueError(f"--partners {spec!r}: unknown bot {name!r} (valid bots: "
                         f"{', '.join(BOT_NAMES)})")
    params: dict[str, Any] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, text = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"--partners {spec!r}: {item!r} is not K=V")
        value: Any = text.strip()
        for conv in (int, float):
            try:
                value = conv(text)
                break
            except ValueError:
                continue
        if text.strip().lower() in ("true", "false"):
            value = text.strip().lower() == "true"
        params[key.strip()] = value
    try:
        make_bot(name, **params)
    except TypeError:
        raise ValueError(f"--partners {spec!r}: a parameter the {name} bot does not take "
                         f"({', '.join(sorted(params))})") from None
    except (ValueError, ImportError) as exc:
        raise ValueError(f"--partners {spec!r}: {exc}") from None
    return name, params


def build_tasks(bot: str, params: dict[str, Any], players: Sequence[int], seeds: Sequence[int],
                rules: RuleSet, open_hand: bool = True, open_time_limit: float = 10.0,
                partners: str | None = None,
                partner_params: dict[str, Any] | None = None) -> list[dict]:
    """The tasks of one simulation, player count by player count, seed by seed. The key names
    the bot, its parameters, the rules, the player count, the seed and the open-hand limit,
    and with ``partners`` (a bot of :data:`bots.BOT_NAMES` in every seat but the first, with
    ``partner_params``) the partners (a key without them is the key of the same bot in every
    seat, as before partners existed, so old databases resume)."""
    pjson = json.dumps(params, sort_keys=True, separators=(",", ":"))
    rj = rules_json(rules)
    opened = "none" if not open_hand else f"{open_time_limit:g}"
    mixed = ""
    if partners is not None:
        partner_params = partner_params or {}
        mixed = f"|partners={partners}" + json.dumps(partner_params, sort_keys=True,
                                                      separators=(",", ":"))
    tasks = []
    for p in players:
        for s in seeds:
            task = {
                "key": f"{bot}|{pjson}|{rj}|p{p}|s{s}|open={opened}{mixed}",
                "bot": bot, "params": params, "rules": rules.to_dict(), "players": p, "seed": s,
                "open_hand": open_hand, "open_time_limit": open_time_limit,
            }
            if partners is not None:
                task.update(partners=partners, partner_params=partner_params)
            tasks.append(task)
    return tasks


def seats_of(task: dict[str, Any]) -> list[dict[str, Any]]:
    """Who sits where in ``task``: per seat, seat 1 first, ``{"bot": NAME, "params": {...}}``
    (the task's bot in seat 1, its ``partners`` in the others; the bot everywhere without)."""
    first = {"bot": task["bot"], "params": task["params"]}
    other = ({"bot": task["partners"], "params": task.get("partner_params") or {}}
             if task.get("partners") else first)
    return [first] + [other] * (task["players"] - 1)


def play_task(task: dict[str, Any]) -> dict[str, Any]:
    """Play one task (see the module docstring); a row of :data:`COLUMNS`."""
    from bots import make_bot
    from bots.base import play_table
    from bots.cheat import CheatBot

    rules = RuleSet.from_options(task["rules"])
    deal = Deal.from_seed(task["seed"], task["players"], rules)
    seats = seats_of(task)
    bot = make_bot(task["bot"], **task["params"])
    table = [bot] + [make_bot(x["bot"], **x["params"]) if task.get("partners") else bot
                     for x in seats[1:]]
    result = play_table(deal, table)
    if isinstance(bot, CheatBot) and not task.get("partners"):
        open_verdict = bot.verdict
    elif task.get("open_hand", True) and task.get("known_open_verdict") in PROVEN:
        open_verdict = task["known_open_verdict"]  # proven before, in this database
    elif task.get("open_hand", True):
        from solver import solve

        open_verdict = solve(deal, time_limit=task.get("open_time_limit", 10.0)).verdict
    else:
        open_verdict = None
    record = result.plan.to_json()
    record["bot"] = {"name": task["bot"], "params": task["params"], "outcome": result.outcome}
    record["seats"] = seats
    return {
        "bot": task["bot"], "params": json.dumps(task["params"], sort_keys=True),
        "rules": rules_json(rules), "players": task["players"], "seed": task["seed"],
        "outcome": result.outcome, "slots": result.slots, "out_cards": result.out,
        "turns": result.turns, "seconds": round(result.seconds, 4),
        "open_verdict": open_verdict, "record": json.dumps(record, separators=(",", ":")),
    }


#: Open-hand verdicts that are proofs (a replayed win, an exhaustive loss): they hold at any
#: time limit, so a database's proven verdict of a deal is reused by every later run.
PROVEN = ("win", "loss")


def reuse_open_verdicts(db_path: str | os.PathLike, tasks: Sequence[dict[str, Any]]) -> int:
    """Give each open-hand task of ``tasks`` the proven open-hand verdict (``win``/``loss``)
    that any row of the database at ``db_path`` already holds for the same deal (rule set,
    player count, seed), whatever bot or time limit produced it, as
    ``task["known_open_verdict"]``: :func:`play_task` then does not solve that deal again.
    Unknown verdicts are solved again. Returns the number of tasks given one. The database
    is read without writing (:func:`studies.runner.read_only_uri`); a missing file, or one
    without the table, gives 0 (the runner decides whether the file can be used)."""
    try:
        from studies.runner import read_only_uri

        con = sqlite3.connect(read_only_uri(db_path), uri=True)
    except (OSError, ValueError, sqlite3.Error):
        return 0
    try:
        known = {(r, p, s): v for r, p, s, v in con.execute(
            f"SELECT rules, players, seed, open_verdict FROM {TABLE} "
            "WHERE open_verdict IN (?, ?)", PROVEN)}
    except sqlite3.Error:
        return 0
    finally:
        con.close()
    n = 0
    for t in tasks:
        if not t.get("open_hand", True):
            continue
        v = known.get((rules_json(RuleSet.from_options(t["rules"])), t["players"], t["seed"]))
        if v is not None:
            t["known_open_verdict"] = v
            n += 1
    return n


def load_rows(db_path: str | os.PathLike, keys: Iterable[str]) -> list[dict[str, Any]]:
    """The stored rows of ``keys`` (missing keys are left out), as dicts."""
    keys = list(keys)
    con = sqlite3.connect(str(db_path))
    con.row_factory = sqlite3.Row
    try:
        rows: list[dict[str, Any]] = []
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            q = f"SELECT * FROM {TABLE} WHERE key IN ({','.join('?' * len(chunk))})"
            rows.extend(dict(r) for r in con.execute(q, chunk))
        return rows
    finally:
        con.close()


def report(rows: Sequence[dict[str, Any]], players: Sequence[int]) -> list[dict[str, Any]]:
    """Per player count (in ``players`` order, then ``"all"``), the figures of the module
    docstring. Rows whose ``outcome`` is ``error`` are counted in ``errors`` only."""
    from bots.mistakes import paired_interval
    from studies.stats import wilson, wilson_unknown

    out = []
    groups = [(str(p), [r for r in rows if r["players"] == p]) for p in players]
    if len(players) > 1:
        groups.append(("all", [r for r in rows if r["players"] in players]))
    for label, rs in groups:
        errors = sum(1 for r in rs if r["outcome"] not in ("win", "loss"))
        rs = [r for r in rs if r["outcome"] in ("win", "loss")]
        n = len(rs)
        won = sum(1 for r in rs if r["outcome"] == "win")
        lost = [r for r in rs if r["outcome"] == "loss"]
        wins = [r for r in rs if r["outcome"] == "win"]
        paired = [r for r in rs if r["open_verdict"] is not None]
        o_won = sum(1 for r in paired if r["open_verdict"] == "win")
        o_unknown = sum(1 for r in paired if r["open_verdict"] == "unknown")
        line: dict[str, Any] = {
            "players": label, "games": n, "won": won,
            "win": won / n if n else None,
            "interval": list(wilson(won, n)),
            "slots_at_loss": sum(r["slots"] for r in lost) / len(lost) if lost else None,
            "out_at_win": sum(r["out_cards"] for r in wins) / len(wins) if wins else None,
            "seconds_per_game": sum(r["seconds"] for r in rs) / n if n else None,
            "errors": errors,
        }
        if paired:
            m = len(paired)
            o = [r["open_verdict"] == "win" for r in paired]
            b = [r["outcome"] == "win" for r in paired]
            mean = (sum(o) - sum(b)) / m
            bot_won_paired = sum(b)
            # Newcombe's paired interval of open share − bot share (the review's; the deals
            # are the pairs: won by both, by the open hand only, by the bot only, by neither)
            price_interval = paired_interval(
                sum(x and y for x, y in zip(o, b)), sum(x and not y for x, y in zip(o, b)),
                sum(y and not x for x, y in zip(o, b)), sum(not (x or y) for x, y in zip(o, b)))
            line.update({
                "open_games": m, "open_won": o_won, "open_unknown": o_unknown,
                "open_win": o_won / m, "open_interval": list(wilson_unknown(o_won, o_unknown, m)),
                "price": mean,
                "price_interval": list(price_interval),
                "silent_share": bot_won_paired / o_won if o_won else None,
                # the same with every unknown open-hand verdict counted as a win (the solver
                # ran out of time; on this machine unloaded it wins every deal of the corpus)
                "price_if_unknown_won": mean + o_unknown / m,
                "silent_share_if_unknown_won": (bot_won_paired / (o_won + o_unknown)
                                                if o_won + o_unknown else None),
            })
        out.append(line)
    return out


def write_records(rows: Sequence[dict[str, Any]], directory: str | os.PathLike) -> tuple[int, int]:
    """Write each row's game record to ``directory/<bot>-p<P>-seed<S>.json`` (created if
    missing), each file whole (a temporary file in the same directory, then renamed). A file
    already there with the same content is left alone; one with other content is never
    overwritten (the record is then written as ``...-<n>.json``). Returns (written, kept)."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    written = kept = 0
    for r in sorted(rows, key=lambda r: (r["players"], r["seed"])):
        if not r.get("record"):
            continue
        text = dumps(json.loads(r["record"])) + "\n"
        seats = json.loads(r["record"]).get("seats") or []
        names = [x["bot"] for x in seats]
        table = r["bot"] if len(set(names)) <= 1 else f"{names[0]}+{names[1]}"
        stem = f"{table}-p{r['players']}-seed{r['seed']}"
        n = 0
        path: Path | None
        while True:
            path = d / (f"{stem}.json" if n == 0 else f"{stem}-{n}.json")
            if not path.exists() and not path.is_symlink():
                break
            if path.exists() and path.read_text(encoding="utf-8") == text:
                kept += 1
                path = None
                break
            n += 1
        if path is None:
            continue
        while True:  # never replace: a file created meanwhile is kept, the next name taken
            try:
                write_new_text(path, text)
                break
            except FileExistsError:
                n += 1
                path = d / f"{stem}-{n}.json"
        written += 1
    return written, kept
