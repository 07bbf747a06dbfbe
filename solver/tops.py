"""The top: the most a deal may score not yet refuted. The bounds lower it ending by ending
(`lower_top`), and Glucose glances at it on the second core before the constraint model joins
(`Glances`)."""

from __future__ import annotations

from deducer.settings import Ending
from solver import questions, sat
from solver.endings import Endings, open_endings
from solver.glance import Glance, glances
from solver.model import Deal, Position
from solver.search import Search

# Positions of the search on a deal (the probes included) before Glucose glances at its top (None:
# never; see `Glances`). Most deals take fewer (5p Avalanche: 96% of them) and never pay for it.
# On the 106 deals of `solver.climb.climb` (in all, median) and 5p Avalanche seeds 0-999 (p95 and p99 of each
# deal order), the glance in the helper process: 1,000 positions 48.5-48.7 s, 0.250 s, p95 27/33 ms,
# p99 222/202 ms; 2,000 49.3-49.7 s, 0.243-0.247 s, p95 28/35 ms, p99 233/220 ms. In a thread, the
# build and load held the interpreter: 1,000 positions 50.3-51.4 s, p95 38-48 ms; 2,000 51.7 s, p95 27-32 ms.
GLANCE_AFTER: int | None = 1_000

# Glucose's conflicts after which a glance at the top no longer keeps the other configuration's place
# in the model's first question (see `Glances` and `solver.climb.climb`). It was half a second of the question:
# on this machine (about 10,000 conflicts a second, half the tuning machine's speed), 5p Avalanche
# round-robin 744's glance, which refutes 28 after about 18,000, was stopped after 10-11,000 in most
# solves (6-7 s in all) and decided in a process's first (3 s). With 20,000, alternating deal by deal
# in one process per version against the schedule with the other two joins in work: 744 6.1-6.7 ->
# 2.8-3.1 s; the 106 mid deals 106.9 -> 102.7 s, 13 -> 11 over 2 s; the 26 slow deals 196.5 -> 201.4
# s (3p per seat 8071 15.5 -> 19.0 s, 4p round-robin 1581 3.8 -> 1.4 s).
GLANCE_LEAD = 20_000
# The lead of a glance on the ladder (the top's question without endings: `TOP_LADDER`), which is the
# SAT reference's own question (`benchmarks/ladder_reference.py`). Where Glucose decides it alone in
# 20,000-50,000 conflicts (1-2.5 s), a glance stopped after 20,000 left the deal to the anchored glance,
# whose anchors (100,000 conflicts each) came before the whole question went on: the solver was up to
# 2.5x slower than Glucose alone (5p Avalanche round-robin 8240, a loss at 29: 2.9 s against 1.2 s on the
# perfect-score question). With this lead, the anchored glance beside it in the helper (no longer one
# glance at a time there: `solver.helper`), and CaDiCaL in its place once it is spent (`race.Question._race_glance`),
# alternating deal by deal against 20,000 (`bench_hard.py --against`), the 26 slow deals 78.0 -> 77.0 s
# in all, over 2 s 7 -> 6: 8240 3.07 -> 1.56 s, 5p per seat 3239 1.83 -> 1.24 s, 4p per seat 1730
# 1.51 -> 1.20 s; but 5p per seat 3785, which CaDiCaL wins, 13.1 -> 14.2 s, and round-robin 3785 3.6
# -> 4.0 s (Glucose alone: 24 and 20 s); the 106 mid deals 34.3 -> 34.9 s (the median of the per-deal
# ratios 1.015). On the perfect-score question, Glucose alone / the solver: 8240 1.21 / 1.28 s, 3239
# 1.19 / 1.37 s, 1730 1.14 / 1.17 s (before: 1.41 s). Each part alone did worse: this lead with the
# anchored glance queued behind it in the helper, 5p base round-robin 8450 (the anchors win) 1.8 ->
# 3.4 s; with the other configuration in its place after it, per seat 3785 12.8 -> 15.0 s.
LADDER_LEAD = 50_000

# Glucose's glance at the top asks a question without endings (at the maximum, most often) on the ladder
# encoding of the clue tokens, one told endings on the nine values (`Glances.start`). Where the model's
# first question is that very question and its anchored glance would have no anchor (the bounds refute
# the first anchor: a refutation, most often), the glance at the top goes on as the anchored glance's
# whole question (`solver.questions._whole_only`), rather than stopping after its lead and the question being asked again
# from scratch. Against the whole question alone (two runs of the 26 slow deals, one of the 106 mid deals,
# alternating deal by deal): 107.4 / 120.8 -> 107.9 / 114.8 s in all, 5p round-robin 8329 4.6 / 5.1 ->
# 3.1 / 3.8 s (the glance goes on), 4p per seat 257 3.1 / 2.6 -> 1.2 / 1.2 s (the ladder decides it within
# its lead), but 5p per seat 3239 0.9 / 1.1 -> 2.1 / 2.5 s (the ladder needs 23,000 conflicts where the
# nine values need 15,000: past its lead); mid 54.4 -> 49.5 s, the median 0.263 -> 0.253 s (5p round-robin
# 1587 3.2 -> 1.4 s, per seat 646 1.4 -> 0.4 s, 4p per seat 257 2.9 -> 1.4 s; 5p per seat 36 0.2 -> 0.5 s).
# A lead of 30,000 conflicts for every glance instead of 20,000 (`GLANCE_LEAD`): slow 109.1 -> 105.5 s
# (5p round-robin 8240 5.7 -> 2.8 s, per seat 3239 2.4 -> 1.7 s), mid 47.6 -> 50.8 s (4p per seat 301,
# whose glance is told endings, 2.4 -> 3.4 s); not taken.
TOP_LADDER = True


TopEndings = dict[int, Endings | None]  # the endings of each top of a root bounded so far (`open_endings`)


class Glances:
    """Glucose's glances at the top before the model joins (`solver.glance`, see `solver.climb.climb`): the first
    once the search has spent `GLANCE_AFTER` positions on the deal (its probes included), on two cores
    and where the clauses cover the rules; the next at once after one refutes its top (`at`: when the
    next is due, None: none is). One runs at a time, told the endings `ends` of its top left open
    (without any, on the ladder encoding: `TOP_LADDER`)."""

    def __init__(self, model: Deal, root: Position, search: Search) -> None:
        self._model, self._root, self._search = model, root, search
        self.known: TopEndings = {}  # (shared with the model's questions: see `lower_top`)
        after = GLANCE_AFTER if questions.RACE and sat.applies(model) else None
        self.on = after is not None  # (does Glucose glance at this deal's tops at all?)
        self.at: int | None = None if after is None else search.nodes + after
        self.ends: Endings | None = None
        self._glance: Glance | None = None

    def due(self) -> bool:
        """Is a glance due now (none running)?"""
        return self._glance is None and self.at is not None and self._search.nodes >= self.at

    def start(self, top: int, best: int) -> tuple[int, str | None]:
        """Glance at `top` (a proven bound above `best`) lowered by the endings (`lower_top`): the new
        top, and why a top fell (None if none did). No glance if the top fell to `best`, or if the
        clauses do not cover the deal (asked only now: most deals never import them)."""
        self.at = None
        if not glances(self._model):
            return top, None
        top, self.ends, why = lower_top(self._model, self._root, top, best, self.known)
        if top > best:
            heights = questions.told(self.ends, top)
            ladder = TOP_LADDER and not heights
            lead = LADDER_LEAD if ladder else GLANCE_LEAD
            self._glance = Glance(self._model, top, self._root, heights, lead=lead, ladder=ladder)
            self._glance.start()
        return top, why

    def done(self) -> bool:
        """Has the glance running finished (decided, or stopped)? The search's interrupt meanwhile."""
        return self._glance is not None and self._glance.done.is_set()

    def take(self) -> Glance | None:
        """The glance, if any (to race the model's first question), no longer this one's to stop."""
        glance, self._glance = self._glance, None
        return glance

    def finished(self) -> Glance | None:
        """The glance, taken once it has finished (None while it runs, or if none does)."""
        return self.take() if self.done() else None

    def stop(self) -> None:
        """Stop the glance running, if any: in the helper process, without waiting for it; in a
        thread, waiting for it (a stop is heard within a turn of its build: waiting lets it run at
        once; not waiting, the search would hold the interpreter for 5 ms at a time, and the build
        would outlast the deal by 5-10 ms)."""
        if self._glance is not None:
            if self._glance.in_helper:
                self._glance.interrupt()
            else:
                self._glance.stop()
            self._glance = None


def lower_top(
    model: Deal, root: Position, top: int, best: int, known: TopEndings | None = None
) -> tuple[int, Endings | None, str | None]:
    """`top` (a proven bound above `best`) lowered while the bounds refute every way the fireworks
    can end at it (`solver.endings`; standard rules): the new top, its endings left open (None: too
    many to check, or the caps themselves), and why the last top refuted fell (None if none did).
    `known` keeps the endings bounded for the next call on the same root: Glucose's glance and then
    the model ask the same top, and its bounds can take a second (5p Avalanche per seat 301: 1.0-1.3 s)."""
    known = {} if known is None else known
    reason = None
    while top > best and model.rules.ending is Ending.STANDARD and top < sum(root[3]):
        if top not in known:
            known[top] = open_endings(model, root, top)
        ends = known[top]
        if ends is None or ends.open:
            return top, ends, reason
        reason, top = ends.reason(), top - 1
    return top, None, reason
