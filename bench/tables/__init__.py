"""Tables under load: N concurrent tables played through the Discord API double.

    python -m bench.tables [--tables 50,200,500] [--seconds 20] [--warmup 5]
                           [--edit-interval 1.0] [--think 0.8] [--think-processes N]
                           [--trace]
                           [--processes N] [--database sqlite|postgresql]
                           [--postgres-nice N] [--metrics]

Each bot process serves its health endpoint and Prometheus metrics (METRICS_PORT), as
in production; the harness reads the computer players' decisions from them at the
window's ends, and with `--metrics` it also scrapes both every second, as a busy
Prometheus would.

The real bot (TrickTableBot, its cogs, its store on a SQLite file, or on PostgreSQL with
`--database postgresql`: a fresh server from the `pgserver` package for each run, at the
benchmark's own priority unless `--postgres-nice N` sets it apart, which the output says) runs in
its own process, as in production, connected to the local Discord double
(discord_double) that runs in this process with the simulated people. With
`--processes N` there are N bot processes, process i serving shard i of N (the double
shards its gateway as Discord does), on one shared database, and the tables are spread
over N servers, one on each shard. For each N: N channels, one table in each (the
five games in turn), opened with /play and filled through the buttons as people do: two
people and two computer players at four-seat tables, one and one at two-seat tables;
computer players act at once (bot pause 0) and think with the production budget
(`--think 0.8`: the searching players at full strength, in the bot's thinking pool;
`--think 0` gives every computer player's rule-based answer; they think in the bot's
worker processes, one per core, or `--think-processes N`, 0 for threads of the bot
process as before). Each person opens their
hand and then, for `--seconds`, presses one of their legal action buttons (chosen at
random) as soon as their hand message shows any, waiting for each answer before the next
press; when they have none they wait until the bot refreshes their hand message. (Each
person's first press comes at a random moment of the first second, not all in the same
instant.) The first `--warmup` seconds of play are not measured: the bot's pool of HTTP
connections grows to what the load needs then, as it does once in a long-running bot (a
new connection costs a click several turns of the event loop).

Measured over the window that follows (the setup is not counted):
- interactions per second: presses sent in the window / its length;
- arrival to callback (p50, p99, max): from the moment discord.py in the bot process
  parses the INTERACTION_CREATE (a wrapped gateway parser stamps it) to the moment the
  double receives the bot's initial response, the callback answer (both clocks are
  time.time() on this machine). That is the bot's whole reaction: discord.py, the Tables
  cog, the table lock, the engine, the store's commit, rendering and the HTTP call.
  "D p99" is the same from the double's sending of the interaction (adds the gateway hop);
- database writes per action: INSERT/UPDATE/DELETE statements run on the store's
  writing connection (its trace callback sees each, executemany's rows included) divided
  by the actions stored (append_action calls, computer players' included);
- memory per live table: growth of the bot process's resident set from after a warm-up
  (one table of each game opened and started: modules imported, caches filled) to the
  end of the window, divided by the tables opened meanwhile (N - 5): their channels,
  members, tables, hands and logs;
- late: the double's "deadline" violations (an initial response after Discord's 3 s);
  unanswered: presses with no answer at all;
- CPU: each bot process's CPU time in the window (of one core), the harness's (the double
  and the people), PostgreSQL's server processes' when it is used, the computer players'
  worker processes', the bot processes' CPU milliseconds per interaction, and the load
  average at the window's start and end (the machine may be shared);
- the computer players' decisions, per kind and in total, read from the bot processes'
  metrics at the window's start and end (the differences, summed over the processes):
  the decisions answered, those within their full budget (the budget did not run out)
  with the share's Wilson 95% interval, those whose budget ran out (answered with the
  player's fallback; a decision that needs no search never runs out), the errors by
  cause (a decision that raised, or a player that did not pickle back), those answered
  within the budget's seconds from their submission (waiting for a worker included),
  and decision time p50/p95/max from submission to choice, as the upper bound of the
  histogram bucket holding each.

The pieces: `harness.py` (the double, the people, one run), `probes.py` (the bot process
and what it records through the bot's hooks), `decisions.py` (the decisions read from
the bot processes' metrics), `report.py` (what is printed) and `__main__.py` (the
command line).
"""
