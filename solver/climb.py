"""The search for the best line of a deal: greedy lines, bounds, short probes, then the climb from the
best score found to the true best, with the constraint model and Glucose joining it on hard deals
(`best_line`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from random import Random

from deducer.settings import Ending
from solver import probes, race, sat
from solver.bounds import Bound, clues_bound, copies_bound, explain
from solver.endings import Endings, capped, uncapped
from solver.greedy import greedy_start
from solver.model import Deal, Move, Position
from solver.probes import allow, caller_budget_spent, probe, probe_orders
from solver.questions import Rivals, ask, found_line, refuted_by_model, wait
from solver.search import USUAL, Ordering, OutOfBudget, Search
from solver.tops import Glances, TopEndings, lower_top


@dataclass(frozen=True)
class Outcome:
    """The search's answer on the model: verdict, best score, and the moves reaching it."""

    verdict: str
    score: int
    upper: int  # proven: no line scores more (`score` unless the verdict is "unknown")
    line: list[Move]
    nodes: int
    reason: str | None


MODEL_JOINS = 5_000  # positions the depth-first search spends alone on a target before the constraint model joins
# Then, before the model joins, shuffled restarts at the top (`SHUFFLED` positions each, in orders that
# toss a coin between waiting and letting go) spend `SHUFFLED_JOINS` positions in all (see `climb`). A
# narrow win hides behind an early choice that neither the climb nor the probes' 375 positions an order
# revisit: asked for 30 from the deal, such restarts found it within 300,000 positions in 6 runs of 6
# (other seeds each run) on 9 of 13 slow wins, a median of 4,000-17,000 on four of them (5p Avalanche
# round-robin 8071, 4p per seat 8071, 4p round-robin 8248, 3p round-robin 3989). Asking the top
# (not the climb's target) matters: 5p round-robin 8071 climbs from 26 while its 30 is 4,000 positions
# away. Without the climb's share first (every position before the model at the top), the anchored glance
# lost its best line: 3p round-robin 8071 4.4 s -> undecided at 30 s. Alternating deal by deal against the
# climb alone (`bench_hard.py --against`, two runs): the 106 mid deals 79.8 / 81.1 -> 66.3 / 65.5 s in all,
# the median 0.48 -> 0.33 s, over 1 s 23 -> 13 / 15 (4p per seat 1532 1.8 -> 0.2 s; the worst, 5p
# round-robin 1587, 2.5 -> 3.8 s); the 26 slow deals 155.8 / 145.9 -> 148.2 / 148.3 s, over 1 s 24 -> 20 /
# 21 (5p round-robin 8071 2 -> 0.35 s, 4p per seat 8071 4.3 -> 0.6 s; 4p round-robin 3168 1.5 -> 2.2 s);
# 5p Avalanche seeds 0-999, p99 431 / 334 -> 258 / 246 ms (round-robin / per seat). Restarts beside
# the racing model instead (its cores busy): 162.3 -> 165.8 s on the slow deals. Then 16,000 -> 32,000
# positions, two runs against 16,000 each: the slow deals 195.7 -> 190.1 s, 168.9 -> 157.7 s (4p
# per seat 8248 16.8 / 11.6 -> 1.5 / 0.9 s, found 36,000 positions into them; 4p per seat 3236, a
# loss at 27, 3.8 -> 5.0-5.3 s); the mid deals 74.9 -> 73.9 s (4p round-robin 1653 2.3 -> 1.1 s, 5p
# round-robin 744 2.2 -> 2.7 s); 5p Avalanche seeds 0-999 unchanged (p99 303-364 against 280-340 ms).
# Then 32,000 -> 48,000, two runs: the slow deals 160.9 -> 150.9 s, 164.9 -> 152.7 s, over 2 s 17 ->
# 14 / 15 (4p round-robin 8248 13.3 / 17.9 -> 1.5 s, 3217 3.8 / 4.3 -> 1.9 / 1.5 s; 5p round-robin
# 3785 6.5 / 4.9 -> 8.3 / 9.4 s); the mid deals 76.1 -> 76.0 s; 5p Avalanche seeds 0-999 unchanged
# (p99 323 / 313 against 337 / 285 ms, round-robin / per seat).
SHUFFLED, SHUFFLED_JOINS = 4_000, 48_000
CLIMB_ALONE = 20_000  # positions the climb spends on a target before restarts take turns with it (see `climb`)


PROBE_TOP, PROBE = 3750, 625  # positions for the bound itself, and for each target probed below it
DIVE = PROBE_TOP // probes.PROBE_ORDERS  # the usual order's share of them, taken before the finer bounds (`_dive`)


def best_line(
    model: Deal,
    time_limit: float | None = None,
    node_limit: int | None = None,
    root: Position | None = None,
    ceiling: int | None = None,
    stop: Callable[[], bool] | None = None,
    report: Callable[[int, int], None] | None = None,
    perfect: bool = False,
) -> Outcome:
    """Greedy lines first; if they fall short of the bound, a short dive of the search at it (`_dive`),
    then the finer bounds of `bounds.copies_bound` and `bounds.clues_bound`, short probes from the
    bound down, then `climb`: the search for one point more than the best found, until it fails, with
    the constraint model asking from the bound down beside it. Glucose's glance at the bound may start
    during the probes (`Glances`).

    `root` is the position to solve (default: the opening deal); `ceiling` a score known not to be
    beaten (proven at an earlier position). `node_limit` counts the depth-first search's positions;
    `time_limit` bounds the whole from the call: the search has what the greedy lines and the bounds
    at the deal leave (they are not interrupted: 0.2 s on 5p Avalanche 744); `stop` (asked every 256
    positions of the search, and every 50 ms while it waits for the model) ends it early as the time
    limit would; `report` is told (the best score found, the most not yet refuted) after the greedy
    lines, at each turn of the climb (the first just after the probes), and last the answer's.

    `perfect` (standard rules; Crowning Piece asks nothing else): the question is only whether the
    maximum is reachable. The answer comes as soon as a line reaches it or the maximum is refuted (a
    bound at the deal, most often), with the best line found by then: "unknown" if its score is not
    proven the best (the `upper` bound, below the maximum, says that no line wins)."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    root = model.start() if root is None else root
    maximum = model.rules.max_score
    perfect = perfect and model.rules.ending is Ending.STANDARD  # (Crowning Piece asks only that)

    @cache
    def first_bound() -> Bound:  # (computed once a greedy line falls short of the maximum, and kept)
        bound = explain(model, root)
        if ceiling is not None and ceiling < bound.score:
            bound = Bound(max(ceiling, 0), f"an earlier position of the game could not score more than {ceiling}")
        return bound

    best, best_line_found = greedy_start(model, root, lambda: first_bound().score, perfect)
    if best == maximum:  # (most deals: won by a greedy line, before any bound is needed)
        if report is not None:
            report(best, best)
        return Outcome("win", best, best, best_line_found, 0, None)
    bound = first_bound()
    search = Search(model)
    search.stop, search.report = stop, report
    glances = Glances(model, root, search)
    dived = -1  # the target the usual order has had its share of the probes for (see `_dive`)
    if best < bound.score and not (perfect and bound.score < maximum):
        dived, found = bound.score, _dive(model, search, root, bound.score, deadline, node_limit)
        if found is not None:
            best, best_line_found = bound.score, found  # (a line reaching the bound scores it: no more is possible)
    for finer in (copies_bound, clues_bound):
        if best < bound.score and not (perfect and bound.score < maximum):
            bound = finer(model, root, bound)
    if perfect and bound.score < maximum:  # (the question is answered: no line wins)
        if report is not None:
            report(best, bound.score)
        verdict = "loss" if best == bound.score else "unknown"
        return Outcome(verdict, best, bound.score, best_line_found, search.nodes, bound.reason)
    reason: str | None = None
    top = bound.score
    _report(search, best, top)

    def glance_if_due() -> None:  # (between the probes' move orders)
        nonlocal top, reason
        if glances.due():
            top, why = glances.start(top, best)
            reason = why or reason

    try:
        # A short probe from the bound down: where a line reaches the bound, the bound itself guides the
        # search straight to it, while a lower target lets it wander where the bound cuts nothing.
        # (Under Crowning Piece every target asks for the win: one probe.)
        lowest = max(best, bound.score - 1) if model.rules.ending is Ending.CROWNING or perfect else best
        for target in range(bound.score, lowest, -1):
            if target > top or glances.done():
                continue  # (out of reach, or Glucose has decided: `climb` takes its answer)
            budget = PROBE_TOP if target == bound.score else PROBE
            orders = probe_orders()[1:] if target == dived else ()  # (the usual order's share was the dive)
            if orders:
                budget -= DIVE
            probed = probe(model, search, root, target, budget, deadline, node_limit, orders, glances.done, glance_if_due)
            if probed is not None:
                best, best_line_found = target if target == bound.score else _final_score(model, root, probed), probed
                break
        upper = top
        if best < top:  # (the climb reports at each turn, the first just after the probes)
            best, best_line_found, reason, upper = climb(
                model, search, root, best, best_line_found, top, deadline, node_limit, glances, reason, perfect
            )
    except OutOfBudget:  # (in the probes: `climb` returns what it proved)
        upper = top
    finally:
        glances.stop()
    _report(search, best, upper)  # (a win's `upper` is the maximum: a proven bound at or above it)
    if best == maximum:
        return Outcome("win", best, best, best_line_found, search.nodes, None)
    if upper == bound.score and reason is None:
        reason = bound.reason
    return Outcome("loss" if upper == best else "unknown", best, upper, best_line_found, search.nodes, reason)


def _dive(
    model: Deal, search: Search, root: Position, target: int, deadline: float | None, node_limit: int | None
) -> list[Move] | None:
    """A line reaching `target` (the first bound) if the search in its usual order finds one within
    `DIVE` positions (None proves nothing; nor does the caller's budget running out, which the probes
    then meet at once). It comes before the finer bounds, which a line at the bound makes needless:
    they cost 0.9 ms at the median where the greedy lines fall short (5p Avalanche per seat, seeds
    0-999), and lowered the first bound of 30 on one deal of those 390; the dive wins 252 of them.
    It is the usual order's share of the probe at the bound, which then skips that order.

    It begins with `Search.walk`: deals it wins, 1-5 ms, take 16-21% less (5p Avalanche seeds
    300-429, both deal orders, deal by deal against the dive without it). Every probe walking
    instead changed which hard deals the probes win early (4p Avalanche per seat 301 1.6 -> 12 s):
    only the dive walks."""
    try:
        return probe(model, search, root, target, DIVE, deadline, node_limit, probe_orders()[:1], walk=True)
    except OutOfBudget:
        return None


def climb(
    model: Deal,
    search: Search,
    root: Position,
    best: int,
    line: list[Move],
    top: int,
    deadline: float | None,
    node_limit: int | None,
    glances: Glances,
    refuted: str | None = None,
    perfect: bool = False,
) -> tuple[int, list[Move], str | None, int]:
    """Raise `best` (scored by `line`) to the true best score, which is at most `top`: (best, its line,
    how the score one above the upper bound was refuted (`refuted`, how `top` itself was proven, if
    it stays the bound), the upper bound proven: `best` once decided, and if the budget runs out
    first, `top` lowered by what the model and the restarts refuted meanwhile). `perfect` (see
    `best_line`): the climb ends once the maximum is refuted (it climbs as before until then: the
    best line found is the model's hint and the anchors of Glucose's glance).

    The depth-first search asks for one point more than the best found: successes are cheap, and only
    the target just above the true best needs an exhaustive (failing) search. Most deals end there. When
    it has not decided a target after `MODEL_JOINS` positions, shuffled restarts ask for `top` for
    `SHUFFLED_JOINS` positions more (a narrow win at the top is often near in another order), then the
    constraint model joins it in a background thread (two configurations racing on two cores, see
    `ask`) and asks for `top` (one point less each time it proves a target out of reach): the model finds the narrow wins
    the search wanders past, and the two meet at the true best. Below the maximum, `top` is asked as
    the endings the bounds leave open (`lower_top`): a top whose every ending fails a bound is refuted
    without the model (5p Avalanche round-robin 744, undecided at 28 in minutes before, is now a loss
    at 27 in 3.5 s; 4p per seat 301 finds its 29 in under 2 s, not 9-20 s). Before each question,
    the search has a short try at the top in the capped game of each ending left open, and just
    before the model joins, the `probes.BURNING` orders search `BURN_JOIN` positions each for its target: a
    win that needs cards burnt is often just beyond their share of the probes, and both configurations
    of the model can take seconds on it (4p Avalanche round-robin 1887: 6-8 s; the deal 2.9 -> 0.3 s;
    see `_short_of_the_model`). The model is never
    interrupted to ask something else: it starts afresh on each question, and its time on a question
    varies tenfold from deal to deal (5p Avalanche: 1-10 s for a win at the bound); an attempt that
    runs out of its own time is asked again with another seed, every other time as the best score
    above the best found (`ask`), whose line is taken even when unproven. Meanwhile (once `ask` no
    longer waits) the search climbs on alone, in its usual order, until it has spent `CLIMB_ALONE`
    positions on a target (most deals the model joins end there: the model's build is all they pay),
    then takes turns: `RESTART` positions of a restart for `top` in another move order
    (`_restart_ordering`; the first `RESTARTS` times), `CLIMB` positions of the climb; beside two
    racing configurations, only up to the restarts in the `probes.BURNING` orders, then it waits for their
    answer. The model starts from `root`, as the search does.

    On two cores, once the search has spent `solver.tops.GLANCE_AFTER` positions on the deal (`Glances`: in the
    probes of `best_line` most often, which hand the glance over; the endings first lower `top`),
    Glucose glances at `top` (told its open endings) on the second core, idle until then
    (`solver.glance`, in the helper process of `solver.helper` once it is ready), while the search
    probes and climbs on, and interrupts the search once it decides (a line: the best; a refutation:
    `top` falls by one, with the reason the model would give, and Glucose glances at the next top at
    once). If the model joins first, the glance races its first question in the second configuration's
    place until it has spent `solver.tops.GLANCE_LEAD` conflicts in all (`LADDER_LEAD` on the ladder, then CaDiCaL
    takes its place; at once if it has spent them already; the lead was first
    measured as half a second of the question: see below; once it decides, the model's build stops
    there), and each time the model refutes a top, the glance at the next races the next question the
    same way (`GLANCE_AGAIN`); then that configuration takes its place (and
    once the glance has decided, the short search just before the model's build stops at once, the model
    never built: 55.9-56.7 -> 54.5-55.2 s in all on the 106 deals below, the median 0.32 -> 0.30 s). On
    the 106 deals that took the solver 0.3-5 s among 3p-5p Avalanche under standard rules (seeds 0-1999,
    both deal orders) and 5p base 8450 (`benchmarks/bench_hard.py --set mid`; one process, deal after
    deal): 64.1 -> 56.7 s in all, the median 0.43 -> 0.325 s, 67 faster and 22 slower (by up to 0.6 s:
    deals the second configuration decides, now half a second later); racing 0.3 s instead: 60.4 s; 1 s:
    56.6 s, more over 2 s; stopping the glance when the model joins (it then had 25-150 ms): 67.4 s. On
    the 26 slowest deals known (30 s each): 208.0 -> 213.7 s (3p round-robin 1887 3.1 -> 0.8 s, 5p
    round-robin 744 2.8 -> 1.4 s; 5p base 8450 3.9 -> 4.6 s). Started within the probes (2,000 positions
    into the deal, not 1,000 into the climb: the probes take 3,750 positions or more), on the same 106
    deals, two runs each: 56.6-56.7 -> 51.7 s in all, the median 0.323 -> 0.266-0.279 s. The cost is on
    the deals decided in 2,000-5,000 positions without the model, whose search shares the interpreter
    with the clauses' build and load (about 30 ms, serial): the 60 of 5p Avalanche's 2,000 (seeds 0-999,
    both deal orders) decided in 1,000-5,000 positions without the model, median 27.5 -> 32.8 ms (51-56
    ms from 1,000 positions). In the helper process, whose build and load no longer hold the
    interpreter, and from 1,000 positions again: the 106 deals 53.2 -> 48.6 s in all, the median 0.286
    -> 0.236 s; the 60 deals 2.61-2.75 -> 2.17-2.28 s in all."""
    crowning = model.rules.ending is Ending.CROWNING
    maximum = model.rules.max_score
    search.deadline, search.interrupt = deadline, None
    # The copies bound at every position: with two players, whose ten cards in hand are most often the
    # limit (2p Avalanche, deals 300-499: the slowest went from 16 s to 0.4 s). With more players it
    # never cut at the opening deal of 1,200 benchmark deals, and only slowed the search.
    search.thorough = model.rules.players == 2
    portfolio = sat.applies(model)
    question: race.Question | None = None
    ends: Endings | None = None  # the endings of the model's target left open by the bounds (see `lower_top`)
    turns = 0  # of the search, once the model has joined
    attempt = 0  # the model's attempts at the same question (see `ask`)
    rival = Rivals()  # CaDiCaL's run on the question, kept from one attempt to the next (see `ask`)
    alone = 0  # once the model has joined (0: not yet), the climb goes on alone up to this many positions
    climbed = search.nodes  # when the climb of its current target began (see `MODEL_JOINS`)
    joins, shuffled = 0, 0  # when the model joins; the shuffled restarts made before it does (see `SHUFFLED`)
    search.interrupt = glances.done  # (until the model joins: a glance has decided, or been stopped)
    try:
        while best < top and not (perfect and top < maximum):
            _report(search, best, top)
            climbing = search.nodes < alone
            restart = question is not None and not climbing and turns % 2 == 0 and turns < 2 * RESTARTS
            target = top if restart else best + 1
            if portfolio and question is None:  # (the model has not joined yet)
                joins = climbed + MODEL_JOINS + SHUFFLED_JOINS
                end = climbed + MODEL_JOINS
                if search.nodes >= end:  # the climb has had its share: a shuffled restart at the top
                    target, end = top, min(joins, search.nodes + SHUFFLED)
                    search.ordering = Ordering(shuffle=Random(100 + shuffled), toss=True)  # (not the probes' or restarts' seeds)
                    shuffled += 1
                if glances.at is not None:
                    end = min(end, glances.at)  # (Glucose's glance is due first)
                allow(search, max(1, end - search.nodes), node_limit)
            elif climbing:
                allow(search, alone - search.nodes, node_limit)
            elif question is not None and question.racing and turns >= 2 * len(probes.BURNING):
                # The search has had its climb and burning restarts: the pair has the rest, and once it
                # answers the search below is interrupted at once and the answer taken (`OutOfBudget`).
                wait(question.done, search.stop)
            elif question is not None and turns < 2 * RESTARTS:
                search.ordering = _restart_ordering(turns) if restart else USUAL
                allow(search, RESTART if restart else CLIMB, node_limit)
                turns += 1
            else:
                search.node_limit = node_limit
            try:
                found = search.reach(root, target)
            except OutOfBudget:
                if not portfolio or caller_budget_spent(search, node_limit, deadline):
                    raise
                if question is not None and not question.done.is_set():
                    continue  # the search's turn is over
                if question is None and glances.due():
                    top, why = glances.start(top, best)
                    refuted = why or refuted
                    if top <= best:
                        return best, line, refuted, best
                    continue
                glanced = glances.finished() if question is None else None
                if glanced is not None and glanced.decided:
                    answer = glanced.answer()
                    if answer is not None:
                        score = _final_score(model, root, answer)  # (at least the top: the best)
                        return score, answer, refuted, score
                    refuted, top = refuted_by_model(crowning, glanced.target, glances.ends), glanced.target - 1
                    if top <= best:
                        return best, line, refuted, best
                    glances.at = search.nodes  # and at once at the next top
                    continue
                if question is None and search.nodes < joins:
                    continue  # (the next shuffled restart)
                if question is not None:  # the model has answered, or its time ran out
                    question.stop()
                    asked = question.target if question.floor is None else question.floor
                    answer = found_line(question)
                    if answer is not None:
                        score = _final_score(model, root, answer)  # at least the floor
                        if score > best:
                            best, line = score, answer
                        if score >= question.target:
                            return score, answer, refuted, score
                        if question.proven:
                            return best, line, f"the constraint model proved that no line scores {score + 1}", best
                    if question.target_refuted:  # (by CaDiCaL or the anchored glance, below which the question is undecided)
                        asked = question.target
                    elif not question.proven:  # ask again, with another seed and twice the time (see `ask`)
                        attempt += 1
                        below = None if perfect else best  # (a question below the top cannot answer `perfect`)
                        question = ask(model, root, top, deadline, line, attempt, below, ends, rival, stop=search.stop)
                        search.interrupt = question.done.is_set
                        continue
                    question = None
                    search.interrupt = glances.done  # (no question running: as before the model joined)
                    attempt = 0
                    rival.stop()  # (its question is decided)
                    refuted = refuted_by_model(crowning, asked, ends)
                    if crowning or asked <= best + 1:
                        return best, line, refuted, best  # nothing between the best found and the target refuted
                    top = asked - 1
                    if perfect:
                        return best, line, refuted, top
                    if GLANCE_AGAIN and glances.on:  # (Glucose glances at the new top, as before the model joined)
                        top, why = glances.start(top, best)
                        refuted = why or refuted
                        if top <= best:
                            return best, line, refuted, best
                # The model joins (once the burning orders have had a longer try at its target) or asks again.
                top, ends, refuted, decided = _short_of_the_model(
                    model, search, root, top, best, line, refuted, deadline, node_limit, not alone, glances.done, glances.known
                )
                if decided is not None:
                    return decided
                if glances.done():
                    continue  # (the search, interrupted at once, takes the glance's answer, before the model's build)
                if not alone:
                    alone = search.nodes + CLIMB_ALONE - MODEL_JOINS  # the climb of this target goes on alone
                glances.at = None  # (the model has joined: no more glances)
                question = ask(model, root, top, deadline, line, ends=ends, rival=rival, glance=glances.take(), stop=search.stop)
                search.interrupt = question.done.is_set
                continue
            finally:
                search.ordering = USUAL
            if found is None and (target == best + 1 or crowning):
                return best, line, f"the search was exhaustive ({search.nodes} positions)", best
            if found is None:  # a restart that went through every line: `top` is out of reach
                refuted, top = f"the search was exhaustive ({search.nodes} positions)", top - 1
                if question is not None and best < top and not perfect:
                    question.stop()
                    attempt = 0
                    rival.stop()
                    top, ends, refuted, decided = _short_of_the_model(
                        model, search, root, top, best, line, refuted, deadline, node_limit, known=glances.known
                    )
                    if decided is not None:
                        return decided
                    question = ask(model, root, top, deadline, line, ends=ends, rival=rival, stop=search.stop)
                    search.interrupt = question.done.is_set
                continue
            best, line = _final_score(model, root, found), found
            climbed = search.nodes
            if climbing:  # the next target gets a whole climb alone too
                alone = search.nodes + CLIMB_ALONE
        return best, line, refuted, top  # (`best` itself, unless `perfect` ends the climb below the maximum)
    except OutOfBudget:
        if question is not None:  # a line the model found before the time ran out
            question.stop()
            found = found_line(question)
            if found is not None and _final_score(model, root, found) > best:
                best, line = _final_score(model, root, found), found
        return best, line, refuted, top
    finally:
        search.interrupt = None
        if question is not None:
            question.stop()
        rival.stop()  # (the glance: `best_line` stops it)


RESTART, CLIMB, RESTARTS = 5000, 5000, 40  # see `climb`
# Once the model has refuted a top (most often by the glance racing its question: `solver.race.Question`),
# Glucose glances at the next top at once, as it does before the model joins, and that glance races the
# model's question for it in the second configuration's place until its lead is spent. 5p Avalanche
# round-robin 744 (a loss at 27): the glance at 28 refutes it as the model joins, and the glance at 27
# finds its line in about 0.3 s, where the pair and the anchored glance took 0.5-0.8 s; alternating
# deal by deal against the model's questions without it (and with builds that did not hear the glance,
# `solver.race.Question._unless_glanced`): 744 2.65 / 1.86 -> 1.93 / 1.57 s in two runs of the mid set,
# 1.43 -> 1.64 s in the slow set (where the glance at 28 decided before the model joined); the 26 slow
# deals 115.0 -> 110.6 s in all (median 2.66 -> 2.11 s, the median of the per-deal ratios 0.962, over
# 2 s 15 -> 13); the 106 mid deals 61.6 / 51.6 -> 62.0 / 49.9 s (ratios 1.041 / 0.972: noise).
GLANCE_AGAIN = True
BURN_JOIN = 1000  # positions of each burning order just before the model joins (see `climb`)
CAPPED_PROBE = 2400  # positions shared by the open endings' capped games before each question (see `_short_of_the_model`)
# (The patient burning order finds some lines these miss, but with it and 6,000 positions the 51 slow
# losses measured took longer in all: 49.1 -> 51.2 s.)
CAPPED_ORDERS = (USUAL, probes.BURNING[0])


def _short_of_the_model(
    model: Deal,
    search: Search,
    root: Position,
    top: int,
    best: int,
    line: list[Move],
    refuted: str | None,
    deadline: float | None,
    node_limit: int | None,
    burn: bool = False,
    interrupt: Callable[[], bool] | None = None,
    known: TopEndings | None = None,
) -> tuple[int, Endings | None, str | None, tuple[int, list[Move], str | None, int] | None]:
    """Before the model is asked for `top` (a proven bound above `best`, scored by `line`): the top as
    `lower_top` lowers it, its endings left open, how the last target refuted fell (`refuted` unless a
    top fell here), and `climb`'s answer if the deal is decided without the model: the top fell to
    `best`, or a short search found a line reaching it (a proven bound). The short search is in the
    capped game of each open ending, where the cards above it are trash and every card still needed
    must be played, the search's tightest case (3p Avalanche round-robin 3236: 27 in 82 positions,
    where the model took about 3 s); then, with `burn`, in the burning orders (`BURN_JOIN` positions
    each). An `interrupt` (Glucose's glance has decided) ends the short search at once. `known`: as for `lower_top`."""
    top, ends, why = lower_top(model, root, top, best, known)
    refuted = why or refuted
    if top <= best:
        return top, ends, refuted, (best, line, refuted, best)
    short = None
    if ends is not None and CAPPED_PROBE:
        share = CAPPED_PROBE // len(ends.open)
        for heights in ends.open:
            capped_root = capped(model, root, heights)
            found = probe(model, search, capped_root, top, share, deadline, node_limit, CAPPED_ORDERS, interrupt)
            short = None if found is None else uncapped(model, root, heights, found)
            if short is not None:
                break
    if short is None and burn:
        short = probe(model, search, root, top, BURN_JOIN * len(probes.BURNING), deadline, node_limit, probes.BURNING, interrupt)
    if short is None:
        return top, ends, refuted, None
    score = _final_score(model, root, short)
    return top, ends, refuted, (score, short, refuted, score)


def _restart_ordering(turn: int) -> Ordering:
    """The move order of the restart at the search's `turn` (an even number): the burning orders first
    (longer than in the probes), then shuffled ones (not the probes' seeds)."""
    restart, burning = turn // 2, probes.BURNING
    return burning[restart] if restart < len(burning) else Ordering(shuffle=Random(8 + turn), toss=True)


def _report(search: Search, best: int, top: int) -> None:
    """Tell the caller's `report` (if any) the best score found and the most not yet refuted."""
    if search.report is not None:
        search.report(best, top)


def _final_score(model: Deal, position: Position, line: list[Move]) -> int:
    for move in line:
        position = model.play(position, move)
    return model.score(position)
