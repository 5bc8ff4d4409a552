"""What bench/tables prints: the table of figures and, with --trace, where the time goes."""

from __future__ import annotations

import itertools
import os
from typing import TYPE_CHECKING, Any

from ..engines import machine_line

if TYPE_CHECKING:
    from .decisions import KindDecisions
    from .harness import RunFigures


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


STAGES = ("arrival", "handler", "store", "stored", "respond", "request", "connection", "sent",
          "received", "answered")


def print_stages(window: list[Any], arrivals: dict[int, float],
                 stages: dict[str, dict[str, float]], connections: list[float]) -> None:
    """--trace: where the time from arrival to answer goes (ms between stages)."""
    rows = []
    for inter in window:
        stamps = dict(stages.get(str(inter.id), {}))
        if inter.id not in arrivals or inter.response_at is None or "respond" not in stamps:
            continue
        stamps["arrival"] = arrivals[inter.id]
        if inter.received_at is not None:
            stamps["received"] = inter.received_at
        stamps["answered"] = inter.response_at
        rows.append(stamps)
    rows.sort(key=lambda r: r["answered"] - r["arrival"])
    slow = rows[int(0.98 * len(rows)):]
    print(f"stages of {len(rows)} answers (ms): segment  p50  p99  mean-of-slowest-2%")
    start, end = window[0].created_at, window[-1].created_at
    print(f"  HTTP connections made: {len(connections)} in all, "
          f"{sum(1 for at in connections if start <= at <= end)} in the window; answers on a new "
          f"one: {sum(1 for r in rows if 'new' in r)}, among the slowest 2%: "
          f"{sum(1 for r in slow if 'new' in r)}")
    ended = [1000 * (r["answered"] - r["arrival"]) for r in rows if "deal" in r]
    if ended:
        print(f"  answers to a move that ended a deal: {len(ended)} ({len(ended) / len(rows):.1%}),"
              f" p50 {pct(ended, 0.5):.1f} ms, p99 {pct(ended, 0.99):.1f} ms; among the slowest"
              f" 2%: {sum(1 for r in slow if 'deal' in r)}")
    for a, b in itertools.pairwise(STAGES):
        # a click that stored nothing (a pick, a refusal) skips the store stages
        seg = [1000 * (r[b] - r[a]) for r in rows if a in r and b in r]
        slow_seg = [1000 * (r[b] - r[a]) for r in slow if a in r and b in r]
        print(f"  {a:>10} -> {b:<10} {pct(seg, 0.5):7.1f} {pct(seg, 0.99):7.1f} "
              f"{sum(slow_seg) / max(1, len(slow_seg)):7.1f}  (n={len(seg)})")


def print_collections(window: list[Any], collections: list[list[float]]) -> None:
    """--trace: the cyclic garbage collector's runs in the window, by generation."""
    start, end = window[0].created_at, window[-1].created_at
    for generation in (0, 1, 2):
        runs = [(1000 * wall, 1000 * cpu) for at, gen, wall, cpu in collections
                if gen == generation and start <= at <= end]
        if runs:
            walls, cpus = [wall for wall, _ in runs], [cpu for _, cpu in runs]
            print(f"  gc generation {generation}: {len(runs)} runs, longest "
                  f"{max(walls):.1f} ms, {sum(walls):.0f} ms in all; CPU: longest "
                  f"{max(cpus):.1f} ms, {sum(cpus):.0f} ms in all")


def print_awaiting(awaiting: dict[str, int], shown: int = 5) -> None:
    """--trace: the objects a full collection freed at the window's end (garbage in
    cycles, which waits for the collector's rare full passes), the commonest types."""
    total = sum(awaiting.values())
    top = sorted(awaiting.items(), key=lambda kv: -kv[1])[:shown]
    kinds = ", ".join(f"{name.rsplit('.', 1)[-1]} {n}" for name, n in top)
    print(f"  awaiting a full collection at the window's end: {total} objects"
          + (f" ({kinds})" if kinds else ""))


def print_turns(start: float, end: float, turns: list[list[float]]) -> None:
    """--trace: an answer on a socket's wait for its turn of the loop, in the window."""
    waits = [1000 * wait for at, wait in turns if start <= at <= end]
    if waits:
        print(f"  a socket's answer waited for its turn of the loop (ms): p50 "
              f"{pct(waits, 0.5):.1f}, p99 {pct(waits, 0.99):.1f}, max {max(waits):.1f} "
              f"(n={len(waits)}, every 20 ms)")


def print_loop_profile(start: float, end: float, probe: dict[str, Any]) -> None:
    """--loop-profile: the bot's task steps in the window by kind, and what ran on the
    loop while each click's write was out (from "store" to "stored")."""
    kinds = probe["kinds"]
    steps = sorted((at, took, kind) for at, took, kind in probe["steps"] if start <= at <= end)
    seconds = end - start
    total: dict[int, float] = {}
    for _, took, kind in steps:
        total[kind] = total.get(kind, 0.0) + took
    print(f"  task steps in the window: {sum(total.values()) / seconds:.0%} of a core in all "
          "(ms per second: kind)")
    for kind, took in sorted(total.items(), key=lambda item: -item[1])[:8]:
        longest = max(t for _, t, k in steps if k == kind)
        print(f"    {1000 * took / seconds:6.1f}  {kinds[kind]} "
              f"(longest step {1000 * longest:.1f} ms)")
    starts = [at for at, _, _ in steps]
    writes = sorted(((v["stored"] - v["store"], v["store"], v["stored"])
                     for v in probe["stages"].values() if "store" in v and "stored" in v
                     and start <= v["store"] <= end), reverse=True)
    if not writes:
        return
    import bisect

    def during(rows: list[tuple[float, float, float]]) -> dict[int, float]:
        spent: dict[int, float] = {}
        for _, sent, back in rows:
            for i in range(bisect.bisect_left(starts, sent), bisect.bisect_left(starts, back)):
                _, took, kind = steps[i]
                spent[kind] = spent.get(kind, 0.0) + took
        return {kind: took / len(rows) for kind, took in spent.items()}

    slowest = writes[:max(1, len(writes) // 50)]
    every, slow = during(writes), during(slowest)
    print(f"  while a click's write was out, the loop ran (ms per click; all {len(writes)}, "
          f"the slowest {len(slowest)}, whose writes took {1000 * slowest[-1][0]:.1f} ms or more):")
    for kind in sorted(slow, key=lambda k: -slow[k])[:8]:
        print(f"    {1000 * every.get(kind, 0.0):6.2f} {1000 * slow[kind]:6.2f}  {kinds[kind]}")


def print_figures(figures: list[RunFigures], database: str = "sqlite",
                  processes: int = 1, postgres_nice: int | None = None) -> None:
    print(f"# tables: {machine_line()}")
    print(f"# database: {database}, bot processes: {processes}")
    if database == "postgresql":
        own = os.nice(0)
        server = own if postgres_nice is None else own + postgres_nice
        print(f"# priority: PostgreSQL's server at nice {server}, the bot and the double at "
              f"nice {own}" + (" (equal)" if server == own else
                               " (--postgres-nice: the server has a core first)"
                               if server < own else
                               " (--postgres-nice: the others have a core first)"))
    print(f"{'tables':>6} {'inter/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
          f"{'D p99 ms':>8} {'writes/act':>10} {'KB/table':>8} {'bot CPU':>7} {'double':>6} "
          f"{'late':>5} "
          f"{'unans':>5} {'errors':>6}")
    for f in figures:
        ms = [1000 * x for x in f.bot_latency]
        dms = [1000 * x for x in f.discord_latency]
        per_action = f.writes / f.actions if f.actions else float("nan")
        print(f"{f.tables:>6} {f.interactions / f.seconds:>8.1f} {pct(ms, 0.5):>7.1f} "
              f"{pct(ms, 0.99):>7.1f} {max(ms, default=float('nan')):>7.1f} "
              f"{pct(dms, 0.99):>8.1f} {per_action:>10.2f} "
              f"{f.rss_delta / max(1, f.measured_tables) / 1024:>8.1f} "
              f"{100 * f.cpu / f.seconds:>6.0f}% {100 * f.harness_share:>5.0f}% "
              f"{f.late:>5} {f.unanswered:>5} {len(f.errors):>6}")
    print("(p50/p99/max: arrival at the bot to its callback answer; D p99: from Discord's "
          "sending; writes/act: SQL writes per stored action; KB/table: bot RSS growth / tables "
          "opened after a warm-up of one table per game; "
          "bot CPU: of one core, in the window; double: the same for the process running the "
          "double and the people; late: answered after 3 s)")
    for f in figures:
        split = " + ".join(f"{100 * c / f.seconds:.0f}%" for c in f.cpu_split)
        db = (f", PostgreSQL {100 * f.database_cpu / f.seconds:.0f}%"
              if f.database_cpu is not None else "")
        per = 1000 * f.cpu / f.interactions if f.interactions else float("nan")
        print(f"  {f.tables} tables: bot CPU per process {split}{db}; "
              f"{per:.2f} bot CPU ms per interaction ({f.interactions} interactions); "
              f"thinking workers {100 * f.thinking_cpu / f.seconds:.0f}%; "
              f"load average {f.load[0]:.1f} at the window's start, {f.load[1]:.1f} at its end")
    for f in figures:
        for error in f.errors[:3]:
            print(f"  {f.tables} tables, bot error: {error}")
    for f in figures:
        print_decisions(f)


def _seconds(kind: KindDecisions, q: float) -> str:
    """A quantile of decision time read from the histogram: its bucket's upper bound."""
    value = kind.time_at(q)
    if value != value:  # NaN: no decision
        return "-"
    if value == float("inf"):
        return f">{max(b for b in kind.buckets if b != value):.3g}"
    return f"<={value:.3g}"


def print_decisions(f: RunFigures) -> None:
    """The computer players' decisions in the window, by kind and in total."""
    print(f"computer players' decisions at {f.tables} tables in the {f.seconds:g} s window "
          "(the bot processes' metrics, summed):")
    width = max(len(kind.kind) for kind in f.decisions)
    print(f"{'kind':<{width}} {'decisions':>9} {'within':>7} {'ran out':>7} {'errors':>6} "
          f"{'in time':>7} {'within budget (95% CI)':>26} {'p50 s':>7} {'p95 s':>7} "
          f"{'max s':>7}")
    for kind in f.decisions:
        share, low, high = kind.share()
        interval = (f"{100 * share:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"
                    if kind.decisions else "-")
        print(f"{kind.kind:<{width}} {kind.decisions:>9} {kind.within:>7} {kind.ran_out:>7} "
              f"{sum(kind.errors.values()):>6} {kind.in_time:>7} {interval:>26} "
              f"{_seconds(kind, 0.5):>7} {_seconds(kind, 0.95):>7} {_seconds(kind, 1.0):>7}")
    print("(decisions: answered by the player, from the decision-time histogram; within: its "
          "budget did not run out (a decision that needs no search never runs out); ran out: "
          "it answered with its fallback, its rule-based answer or its search so far; errors: "
          "a decision that raised (the first legal action was played; not among the "
          "decisions) or a player that did not pickle back (its choice stood; among the "
          "decisions); in time: answered within the budget's seconds from its submission, "
          "waiting for a worker included; times: from submission to choice, the "
          "upper bound of the histogram bucket holding the quantile, the buckets being "
          "multiples of the budget up to 10)")
    causes = [f"{kind.kind} {cause} {count}" for kind in f.decisions[:-1]
              for cause, count in sorted(kind.errors.items())]
    print(f"  {f.tables} tables, decision errors by cause: "
          f"{', '.join(causes) if causes else 'none'}")
