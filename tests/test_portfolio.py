"""The portfolio reports the first proven answer, names who proved it, merges unproven
answers honestly and refuses to show contradicting proofs."""

from __future__ import annotations

import time

import pytest

from model.deal import Deal
from model.rules import RuleSet
from solver.exhaustive import solve
from solver.portfolio import solve_portfolio
from solver.result import SolverBug, SolveResult
from tests import signalling

TINY = RuleSet.from_options({"preset": "tiny", "rows": 2, "values": 3, "hand_size": 2})


def find_deal(verdict: str) -> Deal:
    for seed in range(200):
        d = Deal.from_seed(seed, 1, TINY)
        if solve(d).verdict == verdict:
            return d
    raise AssertionError(f"no tiny {verdict} in 200 seeds")


def slow_unknown(deal: Deal, objective: str, **_: object) -> SolveResult:
    time.sleep(30)
    return SolveResult("unknown", objective, deal, solver="slow")


def fast_dfs(deal: Deal, objective: str, **_: object) -> SolveResult:
    return solve(deal, objective)


def stopped_win(deal: Deal, objective: str, **_: object) -> SolveResult:
    res = solve(deal, objective)
    res.optimal, res.bound, res.solver = False, 0, "stopped"
    return res


def bound_only(deal: Deal, objective: str, **_: object) -> SolveResult:
    res = solve(deal, objective)
    return SolveResult("unknown", objective, deal, bound=res.value, solver="bounder")


def says_loss(deal: Deal, objective: str, **_: object) -> SolveResult:
    return SolveResult("loss", objective, deal, solver="liar")


def unsupported(deal: Deal, objective: str, **_: object) -> SolveResult:
    raise NotImplementedError("this rule option cannot be expressed")


def test_first_proof_wins_and_the_slow_solver_is_stopped() -> None:
    deal = find_deal("win")
    res = solve_portfolio(deal, "none", solvers={"slow": slow_unknown, "dfs": fast_dfs})
    assert res.verdict == "win" and res.solver == "dfs"
    st = res.stats["portfolio"]
    assert st["dfs"]["status"] == "proved"
    # did not wait for the 30 s sleeper: its answer would have been "stopped" (unproven)
    assert st["slow"]["status"] == "stopped by the portfolio"


def test_contradicting_proofs_raise_instead_of_answering() -> None:
    deal = find_deal("win")
    with pytest.raises(SolverBug, match="disagree"):
        solve_portfolio(deal, "none", wait_all=True,
                        solvers={"dfs": fast_dfs, "liar": says_loss})


def test_wait_all_keeps_every_answer_and_reports_the_first_prover() -> None:
    deal = find_deal("loss")
    res = solve_portfolio(deal, "none", wait_all=True,
                          solvers={"dfs": fast_dfs, "x": unsupported})
    assert res.verdict == "loss" and res.solver == "dfs"
    assert set(res.stats["portfolio"]) == {"dfs", "x"}


def test_unsupported_solver_is_reported_and_the_other_answers() -> None:
    deal = find_deal("loss")
    # wait_all: on a busy machine the DFS's proof can come before the other worker reports
    res = solve_portfolio(deal, "none", wait_all=True,
                          solvers={"x": unsupported, "dfs": fast_dfs})
    assert res.verdict == "loss" and res.solver == "dfs"
    assert res.stats["portfolio"]["x"]["status"].startswith("unsupported: this rule option")


def test_unproven_answers_merge_best_win_with_best_bound() -> None:
    deal = find_deal("win")
    exact = solve(deal, "waste")
    res = solve_portfolio(deal, "waste",
                          solvers={"stopped": stopped_win, "bounder": bound_only})
    assert res.verdict == "win"
    assert res.bound == exact.value
    # the merged bound meets the win's value, so the merged answer is optimal
    assert res.value == exact.value and res.optimal


def crashes(deal: Deal, objective: str, **_: object) -> SolveResult:
    raise ValueError("boom")


def test_a_crashing_solver_fails_the_portfolio_instead_of_answering_unknown() -> None:
    deal = find_deal("loss")
    with pytest.raises(SolverBug, match="boom"):
        solve_portfolio(deal, "none", solvers={"x": crashes, "slow": slow_unknown})


# ---- signals: the portfolio runs in a child process, signalled once it is ready ---------
# (never a signal to the test process, never after a fixed time: see tests/signalling.py)

def marked_dfs(deal: Deal, objective: str, **_: object) -> SolveResult:
    signalling.ready("dfs")
    return solve(deal, objective)


def marked_slow(deal: Deal, objective: str, **_: object) -> SolveResult:
    signalling.ready("slow")
    time.sleep(3600)  # (stopped by the portfolio: the test's time bound fails otherwise)
    return SolveResult("unknown", objective, deal, solver="slow")


def marked_stuck(deal: Deal, objective: str, **_: object) -> SolveResult:
    import signal

    try:
        signalling.ready("stuck")  # (inside the try: the interrupt may come at once)
        time.sleep(3600)
    except KeyboardInterrupt:
        # SIGINT and SIGTERM are ignored now (the worker's _first_interrupt); a SIGTERM is
        # still ignored, but says it came
        signal.signal(signal.SIGTERM, lambda *_: signalling.ready("stuck: terminated"))
        signalling.ready("stuck: interrupted")
        time.sleep(3600)
    return SolveResult("unknown", objective, deal, solver="stuck")


def _portfolio_child() -> None:
    """The child of :func:`_run_portfolio`: ``solve_portfolio`` with the doubles named in
    argv[1] (JSON: deal seed, objective, solver names, module constants); prints the answer's
    facts as JSON, or ``{"raised": name}``."""
    import json
    import multiprocessing
    import signal
    import sys

    from solver import portfolio

    job = json.loads(sys.argv[1])
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as `ascent` has it
    for name, value in job.get("constants", {}).items():
        setattr(portfolio, name, value)
    collect, calls = portfolio._collect, [0]

    def marked_collect(*args: object, **kwargs: object) -> None:
        calls[0] += 1
        signalling.ready(f"collecting {calls[0]}")
        return collect(*args, **kwargs)

    portfolio._collect = marked_collect
    doubles = {"dfs": marked_dfs, "slow": marked_slow, "stuck": marked_stuck}
    deal = Deal.from_seed(job["seed"], 1) if job["seed"] is not None else find_deal("win")
    try:
        res = portfolio.solve_portfolio(deal, job["objective"],
                                        solvers={n: doubles[n] for n in job["solvers"]})
        out = {"verdict": res.verdict, "optimal": res.optimal,
               "interrupted": res.stats.get("interrupted"),
               "status": {n: s["status"] for n, s in res.stats["portfolio"].items()},
               "replays": res.plan is not None and res.plan.replay().outcome == "win"}
    except KeyboardInterrupt:
        out = {"raised": "KeyboardInterrupt"}
    out["children"] = len(multiprocessing.active_children())  # workers left running
    print(json.dumps(out))


def _run_portfolio(seed: int | None, objective: str, solvers: list[str],
                   steps: list[tuple[tuple[str, ...], int]], constants: dict | None = None
                   ) -> dict:
    """Run the portfolio of the doubles ``solvers`` in a child; for each step (marks,
    signal), wait until the child wrote the marks, then send it the signal. Returns what
    the child printed (see :func:`_portfolio_child`)."""
    import json

    job = {"seed": seed, "objective": objective, "solvers": solvers,
           "constants": constants or {}}
    proc = signalling.start_python(
        "import sys; from tests.test_portfolio import _portfolio_child; _portfolio_child()",
        args=[json.dumps(job)])
    for marks, signum in steps:
        signalling.wait_ready(proc, *marks)
        proc.send_signal(signum)
    # a bound against a hang (a worker the portfolio waited for), not a measured time: the
    # doubles sleep an hour and the DFS has no limit
    out, err = signalling.finish(proc, timeout=120)
    assert proc.returncode == 0 and "Traceback" not in err, err
    return json.loads(out)


def test_sigterm_stops_every_worker_and_answers_honestly() -> None:
    import signal

    # a full deal: the waste optimum is not proven in seconds; the DFS has no limit
    res = _run_portfolio(2, "waste", ["dfs", "slow"],
                         [(("collecting 1", "dfs", "slow"), signal.SIGTERM)])
    assert res["children"] == 0  # no worker left running
    assert res["interrupted"]
    assert not res["optimal"] and res["verdict"] in ("win", "unknown")
    if res["verdict"] == "win":  # the DFS's best win, when it had one
        assert res["replays"]


@pytest.mark.slow
def test_a_worker_that_hangs_after_the_interrupt_is_killed() -> None:
    """A CI run once timed out: a worker that ignored SIGTERM outlived the portfolio, and
    the interpreter's exit waited for it. The portfolio now kills what SIGTERM does not end."""
    import signal

    res = _run_portfolio(None, "none", ["stuck", "slow"],
                         [(("collecting 1", "stuck", "slow"), signal.SIGTERM)])
    assert res["children"] == 0
    assert res["interrupted"] and res["verdict"] == "unknown"
    assert res["status"]["stuck"] == "stopped by the portfolio"


def test_more_signals_while_stopping_still_leave_no_worker() -> None:
    """An impatient user: SIGTERM, then Ctrl-C during the answer's collection and another
    while the workers are being stopped. The portfolio gives up (KeyboardInterrupt), but only
    after every worker is gone (the third signal aborted the stopping and left one running).
    The portfolio's own waits are made an hour long here, so that each signal, sent once the
    child shows it reached that stage, is what ends the stage."""
    import signal

    res = _run_portfolio(
        None, "none", ["stuck", "slow"],
        [(("collecting 1", "stuck", "slow"), signal.SIGTERM),
         (("collecting 2", "stuck: interrupted"), signal.SIGINT),  # collecting the answers
         (("stuck: terminated",), signal.SIGINT)],  # stopping the workers
        constants={"ANSWER_AFTER_STOP_SECONDS": 3600.0, "KILL_AFTER_SECONDS": 3600.0})
    assert res == {"raised": "KeyboardInterrupt", "children": 0}


def test_a_worker_stopped_as_it_finishes_prints_no_traceback() -> None:
    """The portfolio stops the slower worker: a signal that lands while the worker, done,
    closes its pipe must not escape as a traceback on standard error (seen once in ~190
    runs of ``ascent solve --solver portfolio``)."""
    import subprocess
    import sys
    from pathlib import Path

    script = """
import os, signal, time
from solver import portfolio

class Conn:
    def send(self, message):
        pass
    def close(self):  # the portfolio's SIGTERM arrives just as the worker closes its pipe
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)

# a library's thread, started before the signals are blocked, may take a process signal
# (the main thread's mask does not hold for it), and CPython then runs the handler in the
# main thread: the case seen on a busy machine
import threading
helper = threading.Thread(target=time.sleep, args=(1,))
helper.start()
signal.pthread_sigmask(signal.SIG_BLOCK, portfolio._STOP_SIGNALS)  # as the worker starts
portfolio._run(lambda: None, {}, Conn())
print("done")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[1], timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "done", done.stderr
    assert done.stderr == ""
