"""The benchmark scripts still run (tiny sizes) and print their table; speed is not checked."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.ai.bridge.learning import declaring_training, defence_training
from bot.ops.metrics import computer_kinds
from tests.ai.helpers import train_tiny_play

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str, timeout: float = 60) -> str:
    done = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _resumes_merges_and_refuses_others(args: tuple[str, ...], first: Path, second: Path,
                                       key: str, refusal: str) -> None:
    """A decision-by-decision bench's records (`first` already holds seeds 12 and 13 of
    `args`): a second run adds nothing, a run from seed 14 into `second` merges with them
    in one report, and a record whose `key` differs is refused with `refusal`."""
    # Run again: both deals are in the record, so none is played and nothing is added.
    again = _run(*args, "--first-seed", "12", "--record", str(first), timeout=180)
    assert len(first.read_text().splitlines()) == 2 and "2 deals (seeds 12..13), " in again
    _run(*args, "--first-seed", "14", "--record", str(second), timeout=180)
    merged = _run(*args[:2], "--report", str(first), str(second))
    assert "4 deals (seeds 12..15), " in merged
    other = json.loads(second.read_text().splitlines()[0]) | {key: "another"}
    second.write_text(json.dumps(other) + "\n")
    refused = subprocess.run([sys.executable, "-m", *args[:2], "--report", str(first),
                              str(second)], cwd=ROOT, capture_output=True, text=True,
                             timeout=60)
    assert refused.returncode != 0 and refusal in refused.stderr


def _rows(output: str, header: str) -> list[list[str]]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:1] == [header])
    rows = []
    for line in lines[start + 1:]:
        if not line.strip() or line.startswith("("):
            break
        rows.append(line.split())
    return rows


def test_engines_benchmark_prints_a_row_per_game_and_kind_of_play() -> None:
    out = _run("bench.engines", "--deals", "3", "--ai-deals", "2", "--rounds", "1",
               "--no-open-spiel")
    assert out.startswith("# engines:")
    rows = _rows(out, "engine")
    assert {(row[0], row[1]) for row in rows} == {
        (game, play) for game in ("bridge", "single_dummy", "spades", "tennis", "bidfair")
        for play in ("random", "ai")}
    assert all(int(row[2]) in (2, 3) and int(row[3]) > 0 for row in rows)


def test_restart_benchmark_rebuilds_every_table() -> None:
    out = _run("bench.restart", "--tables", "5", "--rounds", "1")
    assert out.startswith("# restart:")
    [row] = _rows(out, "tables")
    assert row[0] == "5" and row[2] == "5"  # 5 tables made, 5 restored


def test_tables_benchmark_plays_three_tables_without_late_answers() -> None:
    out = _run("bench.tables", "--tables", "3", "--seconds", "1.5", "--warmup", "0.5",
               "--edit-interval", "0.2")
    assert out.startswith("# tables:")
    [row] = _rows(out, "tables")
    assert row[0] == "3"
    assert float(row[1]) > 0  # some interactions were answered in the window
    assert row[-3:] == ["0", "0", "0"]  # none late, none unanswered, no bot errors


def test_tables_benchmark_counts_the_computer_players_decisions_of_every_process() -> None:
    # Two bot processes, a small budget: the decisions are read from both processes'
    # metrics at the window's ends, by kind and in total. The computer players think in
    # threads of the bot processes: a worker process yields the CPU to every other
    # process (nice 10), so on a busy machine (the suite's other worker) one started for
    # the run may not get to decide anything in a window of 3 s. The worker processes
    # have their own tests (tests/tables/test_thinking.py and the end-to-end ones).
    out = _run("bench.tables", "--tables", "5", "--seconds", "3", "--warmup", "1",
               "--edit-interval", "0.2", "--think", "0.05", "--processes", "2",
               "--think-processes", "0", timeout=120)
    assert "computer players' decisions at 5 tables in the 3 s window" in out
    rows = _rows(out, "kind")
    assert rows[-1][0] == "total" and len(rows) >= 2
    counts = {row[0]: [int(n) for n in row[1:6]] for row in rows}
    for decisions, within, ran_out, _errors, in_time in counts.values():
        assert decisions == within + ran_out and in_time <= decisions
    kinds = [counts[row[0]] for row in rows[:-1]]
    assert counts["total"] == [sum(column) for column in zip(*kinds, strict=True)]
    assert counts["total"][0] > 0
    assert {row[0] for row in rows[:-1]} <= set(computer_kinds())
    assert "5 tables, decision errors by cause: none" in out


def test_bridge_bidding_strength_prints_its_seeds_and_figures() -> None:
    out = _run("bench.strength", "bridge-bidding", "--deals", "3", "--first-seed", "5")
    assert "seeds 5..7" in out
    assert "deals: 3" in out and "IMPs per deal from par:" in out
    assert "game bid where it makes:" in out and "slams bid that fail:" in out


def test_bridge_bidding_strength_bids_duplicate_boards_when_asked() -> None:
    out = _run("bench.strength", "bridge-bidding", "--deals", "2", "--first-seed", "5",
               "--think", "0", "--duplicate")
    assert "first duplicate board of each" in out and "deals: 2" in out


def test_the_bidding_bench_s_duplicate_board_is_board_one_of_a_duplicate_match() -> None:
    from bench.bidding_auctions import bid
    from bot.games import create
    from bot.games.cards import Seat, format_deal

    game = create("bridge", options={"boards": 1}, seed=5)
    record = game.deal_record()
    auction = bid(5, None, 0.0, duplicate=True)
    assert auction.dealer == 0 and auction.vulnerable == (False, False)
    assert auction.pbn == format_deal({Seat(i): list(h) for i, h in enumerate(record.hands)})
    assert bid(5, None, 0.0).pbn != auction.pbn  # a rubber's first deal is dealt otherwise


def test_bridge_bidding_strength_draws_fresh_seeds_and_prints_them() -> None:
    out = _run("bench.strength", "bridge-bidding", "--deals", "1", "--think", "0")
    first = int(out.split("--first-seed ")[1].split()[0])
    assert first >= 1_000_000 and f"seeds {first}..{first}" in out


def test_bridge_bidding_strength_pairs_two_kinds_on_the_same_deals() -> None:
    out = _run("bench.strength", "bridge-bidding", "--deals", "3", "--first-seed", "5",
               "--think", "0", "--kind-b", "bridge-basic")
    assert "A: this checkout, kind default" in out and "B: this checkout, kind bridge-basic" in out
    assert "on the same 3 deals" in out and "IMPs a deal (95% CI" in out


def test_bridge_bidding_strength_pairs_with_a_commit_run_in_its_own_folder() -> None:
    # The same code on both sides: every auction is the same, the difference exactly 0.
    out = _run("bench.strength", "bridge-bidding", "--deals", "2", "--first-seed", "9",
               "--think", "0", "--against", "HEAD")
    assert "A - B: +0.000 IMPs a deal (95% CI +0.000 to +0.000" in out
    assert "auctions differ on 0 deals" in out


def test_bridge_bidding_strength_pairs_two_budgets_on_the_same_deals() -> None:
    out = _run("bench.strength", "bridge-bidding", "--deals", "2", "--first-seed", "5",
               "--think", "0", "--think-b", "0.8", "--difference-only")
    assert "A = this checkout, kind default, think 0.0" in out
    assert "B = this checkout, kind default, think 0.8" in out and "n=2 A-B " in out
    assert "A's call CPU p50 / p95 / max (ms):" in out


def test_bridge_bidding_strength_prints_only_the_difference_when_asked() -> None:
    out = _run("bench.strength", "bridge-bidding", "--deals", "3", "--first-seed", "5",
               "--think", "0", "--kind-b", "bridge-basic", "--difference-only")
    assert "n=3 A-B " in out and "contracts on " in out and "deals: 3" not in out


def test_bridge_bidding_strength_keeps_the_uncontested_deals_when_asked() -> None:
    # Seeds 5..10 at --think 0: three auctions one side has to itself, three contested.
    out = _run("bench.strength", "bridge-bidding", "--deals", "6", "--first-seed", "5",
               "--think", "0", "--uncontested", "--list")
    kept = int(out.split("uncontested auctions only: ")[1].split()[0])
    assert 0 < kept < 6 and f"deals: {kept}\n" in out
    assert out.count("  seed ") == kept


def test_bidding_ablation_undoes_a_commit_and_compares_on_the_same_deals() -> None:
    # 7158f49 (a review: the level of game stated once) undoes cleanly on 07c8b63.
    out = _run("bench.bidding_ablation", "--deals", "2", "--first-seed", "3",
               "--head", "07c8b63", "--commits", "7158f49")
    assert "--first-seed 3" in out and "\n7158f49 n=2 with-without " in out


def test_bridge_bidding_strength_prints_the_worst_deals_with_their_auctions() -> None:
    out = _run("bench.strength", "bridge-bidding", "--deals", "2", "--worst", "1")
    assert "The 1 deals furthest from par:" in out
    assert "IMPs (dealer" in out and "  DD N-S C" in out


def test_bridge_bidding_strength_groups_the_deals_by_par_and_buyer() -> None:
    out = _run("bench.strength", "bridge-bidding", "--deals", "3", "--first-seed", "5",
               "--think", "0", "--groups")
    rows = _rows(out, "group")
    assert sum(int(row[1]) for row in rows) == 3
    for row in rows:
        size, buyer = row[0].split("/")
        assert size in ("part", "game", "slam", "zero") and buyer in ("owner", "other",
                                                                      "nobody")


def test_bridge_bidding_strength_prints_the_slam_deals() -> None:
    # Seed 11's first deal has a slam for East-West (13 tricks in hearts).
    out = _run("bench.strength", "bridge-bidding", "--deals", "1", "--first-seed", "11",
               "--think", "0", "--slams")
    assert "The deals where a slam makes, and the slams bid:" in out
    assert "\nseed 11: " in out and "  DD N-S C" in out


def test_bridge_leads_strength_prints_every_way_at_every_budget() -> None:
    out = _run("bench.strength", "bridge-leads", "--deals", "2", "--think", "0.3,0.2",
               "--leads", "search,learned", timeout=180)
    assert "Opening leads of bridge-advanced on 2 deals (seeds 1..2), by search, learned" in out
    for way in ("search", "learned"):
        for think in ("0.3", "0.2"):
            assert f"  {way} {think} s: layouts p50 " in out
    assert out.count("DD tricks lost by the lead per deal") == 4
    assert "search 0.2 s - search 0.3 s, paired by deal: " in out
    assert "learned 0.3 s - search 0.3 s, paired by deal: " in out


def test_bridge_leads_bids_the_deals_as_served_when_asked(tmp_path: Path) -> None:
    record = tmp_path / "served.json"
    out = _run("bench.strength", "bridge-leads", "--deals", "2", "--bidders",
               "bridge-advanced", "--record", str(record), timeout=180)
    assert "auctions by bridge-advanced;" in out
    assert out.count("DD tricks lost by the lead per deal") == 1
    assert len(json.loads(record.read_text())) == 2
    refused = subprocess.run(
        [sys.executable, "-m", "bench.strength", "bridge-leads", "--bidders", "people"],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "--bidders: invalid choice" in refused.stderr


def test_bridge_leads_record_pairs_another_run_deal_by_deal(tmp_path: Path) -> None:
    record = tmp_path / "leads.json"
    _run("bench.strength", "bridge-leads", "--deals", "2", "--record", str(record),
         timeout=180)
    assert set(json.loads(record.read_text())) == {"1", "2"}
    out = _run("bench.strength", "bridge-leads", "--deals", "2", "--paired-with",
               str(record), timeout=180)
    assert (f"  learned 0.8 s - {record}, paired by deal (2 deals): +0.000 (+0.000 to "
            "+0.000), 0 deals differ (DD tricks a lead)") in out


def test_bridge_leads_compares_pooled_records_deal_by_deal(tmp_path: Path) -> None:
    runs = {name: tmp_path / f"{name}.json" for name in ("a1", "a2", "b1", "b2")}
    runs["a1"].write_text(json.dumps({"1": 1, "2": 0}))
    runs["a2"].write_text(json.dumps({"7": 2}))
    runs["b1"].write_text(json.dumps({"1": 0, "2": 0, "3": 1}))
    runs["b2"].write_text(json.dumps({"7": 0}))
    out = _run("bench.strength", "bridge-leads", "--compare",
               f"{runs['a1']},{runs['a2']}", f"{runs['b1']},{runs['b2']}")
    # Deals 1, 2 and 7 are in both (3 is not): differences 1, 0 and 2.
    assert "paired by deal (3 deals, seeds 1..2, 7): " in out
    assert "= +1.000 (" in out and "2 deals differ (DD tricks a lead)" in out


@pytest.fixture(scope="module")
def tiny_defence_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A defence leads' model of 5 trees from 30 bank deals played at no budget."""
    return train_tiny_play(defence_training, tmp_path_factory.mktemp("defence"), 300, 30)[0]


def test_bridge_defence_strength_pairs_each_lead_and_resumes_and_merges_its_records(
        tiny_defence_model: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    args = ("bench.strength", "bridge-defence", "--model", str(tiny_defence_model),
            "--think", "0.2", "--deals", "2")
    out = _run(*args, "--first-seed", "12", "--record", str(first), timeout=180)
    assert "The defence leads to tricks 2-6 of bridge-advanced on 2 deals (seeds 12..13)" in out
    assert "2 deals (seeds 12..13), " in out and "learned - search, DD tricks a deal" in out
    deals = [json.loads(line) for line in first.read_text().splitlines()]
    positions = [p for d in deals for p in d["positions"]]
    assert [d["seed"] for d in deals] == [12, 13] and positions
    for p in positions:
        assert 2 <= p["trick"] <= 6 and p["cards"] > 1 and p["search"] >= 0 <= p["learned"]
        assert set(p["led"]) == set(p["cpu"]) == {"search", "learned"}
    # Another model's record is not merged with these.
    _resumes_merges_and_refuses_others(args, first, second, "model",
                                       "different kinds, models, budgets or bidders")


def test_bridge_defence_against_another_model_reads_both_on_the_same_searches(
        tiny_defence_model: Path, tmp_path: Path) -> None:
    record = tmp_path / "a.jsonl"
    shipped = ROOT / "bot/ai/bridge/learning/models/defence_leads.npz"
    out = _run("bench.strength", "bridge-defence", "--model", str(tiny_defence_model),
               "--against", str(shipped), "--think", "0.2", "--deals", "2", "--first-seed",
               "12", "--record", str(record), timeout=180)
    assert f"against {shipped}" in out and "learned - against, DD tricks a deal" in out
    assert "learned - search, DD tricks a deal" in out and "played differently at " in out
    deals = [json.loads(line) for line in record.read_text().splitlines()]
    assert deals[0]["against"] and deals[0]["against"] != deals[0]["model"]
    positions = [p for d in deals for p in d["positions"]]
    assert positions and all(set(p["led"]) == {"search", "learned", "against"}
                             and p["against"] >= 0 for p in positions)


def test_bridge_defence_of_the_declaring_kind_pairs_declarer_s_cards(tmp_path: Path) -> None:
    model = train_tiny_play(declaring_training, tmp_path, 400, 20)[0]
    record = tmp_path / "a.jsonl"
    out = _run("bench.strength", "bridge-defence", "--kind", "declaring", "--model",
               str(model), "--think", "0.2", "--deals", "1", "--first-seed", "12",
               "--record", str(record), timeout=180)
    assert "The declaring side's cards to tricks 2-6 of bridge-advanced on 1 deals" in out
    assert "declaring side's cards to tricks 2-6 with a choice" in out
    [deal] = [json.loads(line) for line in record.read_text().splitlines()]
    assert deal["kind"] == "declaring" and deal["positions"]
    assert all(2 <= p["trick"] <= 6 and p["learned"] >= 0 for p in deal["positions"])
    # A defence record is not merged with it.
    defence = tmp_path / "b.jsonl"
    defence.write_text(json.dumps(deal | {"kind": "defence", "seed": 13}) + "\n")
    refused = subprocess.run([sys.executable, "-m", "bench.strength", "bridge-defence",
                              "--report", str(record), str(defence)], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0
    assert "different kinds, models, budgets or bidders" in refused.stderr


def test_bridge_rubber_strength_prints_its_seeds_and_figures(tmp_path: Path) -> None:
    cache = tmp_path / "tables.json"
    args = ("bench.strength", "bridge-rubber", "--rubbers", "2", "--first-seed", "5",
            "--cache", str(cache), "--list")
    out = _run(*args, timeout=180)
    assert "2 rubbers, seeds 5..6, each played both ways" in out
    assert "points a rubber (mean of both ways): " in out and "n=2)" in out
    assert "stopped at the level completing game with a part score (rubber-aware)" in out
    # The double-dummy tables kept in the cache give the same figures again.
    tables = json.loads(cache.read_text())
    assert tables and all(key.split(":")[0] in ("5", "6") for key in tables)
    again = _run(*args, timeout=180)
    assert again.splitlines()[:-1] == out.splitlines()[:-1]


def test_bridge_rubber_against_a_commit_seats_its_players_as_the_previous_ones() -> None:
    # HEAD's players are this checkout's: at --think 0 both ways bid alike, to the point.
    out = _run("bench.strength", "bridge-rubber", "--rubbers", "2", "--first-seed", "5",
               "--against", "HEAD", timeout=180)
    assert "previous: commit HEAD" in out
    assert "points a rubber (mean of both ways): +0.0 (95% CI +0.0 to +0.0, n=2)" in out


def test_games_strength_prints_a_line_per_game_and_opponent() -> None:
    # A small thinking budget: the searching players fall back to their rule-based
    # answers, which keeps this smoke run short on a loaded machine.
    out = _run("bench.strength", "games", "--matches", "2", "--spades-target", "100",
               "--bidfair-target", "100", "--think", "0.01", timeout=300)
    heads = [line for line in out.splitlines() if line.startswith("== ")]
    assert [h.split()[1] for h in heads] == ["spades:", "tennis:", "bidfair:"]
    rows = [line.split() for line in out.splitlines() if line.startswith("  vs ")]
    assert [row[1] for row in rows] == ["random", "greedy", "basic"] * 3
    assert all("of 2 matches" in " ".join(row) and "p95" in row for row in rows)


def test_bridge_play_strength_prints_its_figures_and_merges_its_records(
        tmp_path: Path) -> None:
    record = tmp_path / "run.jsonl"
    out = _run("bench.strength", "bridge-play", "--deals", "1", "--sd-matches", "1",
               "--sd-target", "100", "--think", "0.05", "--record", str(record),
               timeout=180)
    assert "deal set: the first deals of matches [1]" in out
    assert out.count("DD tricks lost per deal, declaring side") == 2  # basic, advanced
    assert "advanced wins:" in out
    # The advanced player's cards, timed by side (a match to 100 has both).
    assert "single dummy declarer" in out and "single dummy defence" in out
    # Run again: the deal and the match are in the record, so nothing is played or added.
    lines = record.read_text().splitlines()
    again = _run("bench.strength", "bridge-play", "--deals", "1", "--sd-matches", "1",
                 "--sd-target", "100", "--think", "0.05", "--record", str(record),
                 timeout=180)
    assert "resumed: 3 deals and matches already in" in again
    assert record.read_text().splitlines() == lines
    assert again.count("DD tricks lost per deal, declaring side") == 2
    # A second shard (the next deal, another match) merged with the first: one report.
    _run("bench.strength", "bridge-play", "--deals", "1", "--first-seed", "2",
         "--kinds", "bridge-basic", "--sd-matches", "1", "--sd-first-seed", "5",
         "--sd-target", "100", "--think", "0.05", "--record", str(record), timeout=180)
    merged = _run("bench.strength", "bridge-play", "--merge", str(record))
    assert "Merged 3 deals and 2 Single Dummy matches from 1 files" in merged
    assert "bridge-basic: 2 deals (seeds 1..2), 104 cards" in merged
    assert "bridge-advanced: 1 deals (seeds 1), 52 cards" in merged
    assert "2 matches to 100 (seeds 1, 5, seats alternating)" in merged
    # Where the tricks were lost, per kind: the basic player's 2 deals lose some.
    assert merged.count("Where DD tricks were lost") == 2
    assert "Where DD tricks were lost (2 deals), tricks a deal:" in merged


def test_pictures_benchmark_prints_a_row_per_game() -> None:
    out = _run("bench.pictures", "--deals", "2")
    assert out.startswith("# pictures:")
    rows = _rows(out, "game")
    assert [row[0] for row in rows] == ["bridge", "single_dummy", "spades", "tennis",
                                        "bidfair"]
    assert all(int(row[1]) == 2 for row in rows)


def test_solves_benchmark_prints_each_strain_and_the_plan() -> None:
    out = _run("bench.solves", "--deals", "2")
    assert out.startswith("# solves: 2 random deals (--seed 1)")
    assert [line.split()[0] for line in out.splitlines()[1:4]] == [
        "notrump", "spades", "both"]
    [planned] = [line.split() for line in out.splitlines() if "COST_PER_SOLVE" in line]
    assert planned[-2:] == ["50.0", "ms"] and "CPU a search node" in out


def test_tables_benchmark_traces_where_an_answer_s_time_goes() -> None:
    out = _run("bench.tables", "--tables", "3", "--seconds", "1.5", "--warmup", "0.5",
               "--edit-interval", "0.2", "--trace")
    assert "store -> stored" in out and "connection -> sent" in out
    assert "a socket's answer waited for its turn of the loop (ms): p50" in out
    assert "awaiting a full collection at the window's end: " in out


def test_bridge_play_strength_pairs_two_records_deal_by_deal(tmp_path: Path) -> None:
    records = [tmp_path / "before.jsonl", tmp_path / "after.jsonl"]
    for record in records:
        _run("bench.strength", "bridge-play", "--deals", "2", "--kinds", "bridge-basic",
             "--sd-matches", "0", "--record", str(record), timeout=120)
    out = _run("bench.strength", "bridge-play", "--paired", *map(str, records))
    assert "Paired on 2 deals (seeds 1..2)" in out
    # The same player on the same deals: every difference is nothing.
    assert out.count("AFTER - BEFORE +0.000 (+0.000 to +0.000), 0 deals differ") == 5
    assert out.count("bridge declarer") == 2  # each side's decision times


def test_bridge_play_strength_plays_only_the_first_tricks_it_is_asked_for(
        tmp_path: Path) -> None:
    short, whole = tmp_path / "short.jsonl", tmp_path / "whole.jsonl"
    out = _run("bench.strength", "bridge-play", "--deals", "2", "--kinds", "bridge-basic",
               "--sd-matches", "0", "--tricks", "2", "--record", str(short), timeout=120)
    assert "the first 2 tricks of each deal" in out
    deals = [json.loads(line) for line in short.read_text().splitlines()]
    assert [(d["cards"], d["tricks"]) for d in deals] == [(8, 2), (8, 2)]
    _run("bench.strength", "bridge-play", "--deals", "2", "--kinds", "bridge-basic",
         "--sd-matches", "0", "--record", str(whole), timeout=120)
    for reading in ("--paired", "--merge"):
        refused = subprocess.run([sys.executable, "-m", "bench.strength", "bridge-play",
                                  reading, str(short), str(whole)], cwd=ROOT,
                                 capture_output=True, text=True, timeout=60)
        assert refused.returncode == 1
        assert "played different numbers of tricks ([2, 13])" in refused.stdout


def test_bridge_team_plays_each_deal_both_ways_on_fresh_deals_outside_the_bank() -> None:
    out = _run("bench.strength", "bridge-team", "--deals", "6", "--first-seed", "11",
               "--tables-only", timeout=120)
    assert "seeds 11..16" in out and "of the learning bank" in out
    assert "contracts differ on" in out and "all: 6 boards, A " in out
    assert "IMPs a board (95% CI" in out and "contested (both sides" in out
    assert "constructive (one side only)" in out


def test_bridge_team_bids_duplicate_boards_when_asked() -> None:
    out = _run("bench.strength", "bridge-team", "--deals", "4", "--first-seed", "11",
               "--tables-only", "--duplicate", timeout=120)
    assert "duplicate boards" in out and "all: 4 boards, A " in out


def test_the_common_opponent_match_scores_a_and_b_each_against_the_tables() -> None:
    """With B the tables themselves, B against the tables bids every board alike at both
    tables (0 IMPs), so A less B is A's own result against the tables, board by board."""
    import re

    out = _run("bench.strength", "bridge-team", "--deals", "4", "--first-seed", "11",
               "--tables-only", "--duplicate", "--common-tables", timeout=180)
    b_line = "B against the tables: all: 4 boards, B +0.000 IMPs a board (95% CI"
    assert b_line in out
    a_mean = re.search(r"A against the tables: all: 4 boards, A ([-+][0-9.]+) ", out)
    paired = re.search(r"A less B against the tables \(paired by board; A's and B's "
                       r"boards differ on [0-9]+\): all: 4 boards, A ([-+][0-9.]+) ", out)
    assert a_mean and paired and a_mean.group(1) == paired.group(1)
    assert "contested (both sides" in out and "constructive (one side only)" in out


def test_the_team_match_seeds_a_seat_alike_whichever_side_sits_there() -> None:
    """Common random numbers: at both tables the player in a seat gets the seat's seed, so
    the same code on both sides deals the same layouts and bids every board alike."""
    from bench.strength_bridge_team import seat_players
    from bot.ai.bridge.bidding.simulation import SampledBidding

    def seeds(seats: tuple[int, ...]) -> list[int]:
        return [p.seed for p in seat_players(SampledBidding, 7, seats)
                if isinstance(p, SampledBidding)]

    assert seeds((0, 2)) == [28, 30] and seeds((1, 3)) == [29, 31]


def test_a_served_call_without_a_rubber_score_is_bid_as_a_duplicate_board() -> None:
    """`bidding_auctions --serve-calls`: a request whose score is null is answered as the
    bot answers on a duplicate board (no rubber score), a score as at that rubber."""
    import io
    import json

    from bench.bidding_auctions import serve_calls
    from bot.ai.bridge.bidding import Score
    from bot.ai.bridge.bidding.simulation import SampledBidding
    from bot.games.cards import parse_hand

    hand = parse_hand("KQ84.AK3.KQ72.A5")
    calls = [(0, "bid:1S"), (1, "pass")]
    legal = ["pass", "bid:2S", "bid:2NT", "bid:3S", "bid:4S", "bid:4NT", "bid:6S"]
    answers = []
    for score in (None, [[0, 0], [60, 0]]):
        out = io.StringIO()
        serve_calls([json.dumps({"seed": 5, "hand": [c.text for c in hand], "seat": 2,
                                 "calls": calls, "legal": legal, "vulnerable": [False, False],
                                 "score": score, "deal_no": 1, "think": 0})], out)
        answers.append(json.loads(out.getvalue()))
    from bot.games.bridge_auction import CALL_BY_TEXT
    made = [(s, CALL_BY_TEXT[c]) for s, c in calls]
    assert answers == [SampledBidding(5).call(hand, 2, made, legal, (False, False), score, 1)
                       for score in (None, Score((0, 0), (60, 0)))]


def test_bridge_bidding_stops_on_a_deal_of_the_learning_bank(monkeypatch) -> None:
    import pytest

    from bench.strength_bridge_bidding import check_fresh
    from bot.ai.bridge.learning import bank
    from bot.games import create

    assert "none of the 2 deals" in check_fresh(range(5, 7))
    hands = tuple(tuple(h) for h in create("bridge", seed=6).deal_record().hands)
    learned = bank.BankDeal(0, hands, 0, (False, False), ((0,) * 4,) * 5)
    monkeypatch.setattr(bank, "read", lambda *args, **kwargs: iter([learned]))
    with pytest.raises(SystemExit, match="seed 6's deal is in the learning bank"):
        check_fresh(range(5, 7))


def test_bridge_values_prints_the_calls_changed_and_the_time_to_ask() -> None:
    out = _run("bench.strength", "bridge-values", "--deals", "4", "--first-seed", "21")
    assert "calls " in out and "changed by the values" in out
    assert "the predictions alone (inference, every round of the chain), CPU per call: p50" in out


def test_bridge_values_at_rubber_scores_asks_the_rounds_served_at_each_score() -> None:
    out = _run("bench.strength", "bridge-values", "--deals", "3", "--first-seed", "21",
               "--rubber")
    assert "learned call values call_values.npz (margin" in out
    assert "call_values_rubber.npz (margin" in out and "at rubber scores" in out
    assert "calls " in out and "changed by the values" in out


def test_bridge_values_asks_the_chain_the_players_are_served_at_the_score() -> None:
    from bench.strength_bridge_values import _asked, _chains
    from bot.ai.bridge.bidding.rubber import Score
    from bot.ai.bridge.learning import values

    served = _chains(None, rubber=True)
    assert served is not None and set(served) == {values.DEFAULT, values.RUBBER}
    assert _asked(None, None) is served[values.DEFAULT]
    assert _asked(None, Score((1, 0), (0, 0))) is served[values.DEFAULT]  # at love
    assert _asked(None, Score((1, 0), (0, 40))) is served[values.RUBBER]  # a part score
    named = _chains(values.RUBBER, rubber=True)  # --model: that chain at every score
    assert named is not None and list(named) == [values.RUBBER]
    assert _asked(named[values.RUBBER], None) is named[values.RUBBER]


def test_bridge_reading_prints_the_layouts_that_fit_before_and_after() -> None:
    out = _run("bench.strength", "bridge-reading", "--deals", "4", "--first-seed", "5",
               "--layouts", "4")
    assert "reading-bench:SEED" in out and "seeds 5..8" in out
    assert out.count("all hidden hands fit") == 4 and "ranges' midpoint" in out


def test_bridge_lead_play_pairs_each_decision_resumes_and_merges(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    args = ("bench.strength", "bridge-lead-play", "--think", "0.2", "--tricks", "2",
            "--deals", "2")
    out = _run(*args, "--first-seed", "12", "--record", str(first), timeout=180)
    assert "on 2 deals (seeds 12..13), tricks 1-2, read_lead off and on" in out
    assert "read - unread, DD tricks a deal, both sides: " in out
    assert "unread  DD tricks lost a deal: declaring " in out and ", defence " in out
    # The play goes on as served: with the lead read.
    assert "read    DD tricks lost a deal: " in out and out.count("the play went on with") == 1
    assert "; the play went on with its cards" in out.split("read    DD tricks lost")[1]
    deals = [json.loads(line) for line in first.read_text().splitlines()]
    decisions = [p for d in deals for p in d["decisions"]]
    assert [d["seed"] for d in deals] == [12, 13] and decisions
    for p in decisions:
        assert p["trick"] in (1, 2) and p["cards"] >= 2 and p["side"] in ("declaring", "defence")
        assert p["unread"] >= 0 and p["read"] >= 0 and set(p["played"]) == {"unread", "read"}
        assert p["went_on"] == "read"
    # Records of other code are not merged with these.
    _resumes_merges_and_refuses_others(args, first, second, "code",
                                       "different budgets, tricks, flags, code or bidders")
    # Records without a flag read the lead (made before the flag was recorded).
    old = json.loads(first.read_text().splitlines()[0])
    assert old.pop("flag") == "read_lead"
    first.write_text(json.dumps(old) + "\n" + first.read_text().split("\n", 1)[1])
    assert "2 deals (seeds 12..13), " in _run(*args[:2], "--report", str(first))


@pytest.mark.parametrize("flag", ["read_follows", "read_suits", "wide_search", "oversample",
                                  "true_reading", "count_signals",
                                  "attitude_signals", "signals", "discard_signals"])
def test_bridge_lead_play_pairs_a_reading_of_the_play_on_and_off(tmp_path: Path,
                                                                 flag: str) -> None:
    from bench.strength_bridge_lead_play import FLAGS, GOES_ON_READ, switched
    from bot.ai.bridge.advanced import AdvancedBridgePlayer

    record = tmp_path / "a.jsonl"
    out = _run("bench.strength", "bridge-lead-play", "--think", "0.2", "--tricks", "3",
               "--deals", "1", "--first-seed", "12", "--flag", flag,
               "--record", str(record), timeout=180)
    assert f"tricks 1-3, {flag} off and on" in out
    assert f"played differently with {flag} on (read) and off (unread)" in out
    # The play goes on with the cards of the way the player is served, or of the way that
    # gives the signals read.
    attribute, _, on = FLAGS[flag]
    served = ("read" if flag in GOES_ON_READ or switched(AdvancedBridgePlayer(), attribute) == on
              else "unread")
    assert "; the play went on with its cards" in out.split(f"{served:7} DD tricks lost")[1]
    deal = json.loads(record.read_text())
    assert deal["flag"] == flag
    assert {p["went_on"] for p in deal["decisions"]} == {served}


def test_the_true_reading_weighs_each_hidden_hand_as_dealt_above_random_ones() -> None:
    import random

    from bench.strength_bridge_lead_play import TrueReading
    from bot.ai.bridge.advanced import AdvancedBridgePlayer
    from bot.ai.bridge.learning.reading import view_weigh
    from tests.ai.helpers import bridge_play_position

    game = bridge_play_position(cards_played=1)
    seat = next(iter(game.to_act()))
    view = game.view(seat)
    weigh = TrueReading(game.dealt)(view)
    assert weigh is not None and AdvancedBridgePlayer().reading is view_weigh
    for other in {0, 1, 2, 3} - {seat}:
        unseen = [c for hand in game.dealt for c in hand if c not in game.dealt[seat]]
        rng = random.Random(other)
        others = [sorted(rng.sample(unseen, 13)) for _ in range(50)]
        true, *rest = weigh(other, [game.dealt[other], *others])
        assert true >= max(rest)
    assert weigh(seat, [game.dealt[seat]]) == [0.0]  # its own hand: nothing to read


def test_bridge_lead_reading_prints_the_picture_unweighed_and_at_each_temperature() -> None:
    out = _run("bench.strength", "bridge-lead-reading", "--deals", "3", "--first-seed", "5",
               "--layouts", "8", "--tempers", "0.1,1")
    assert "on 3 deals (seeds 5..7), 8 layouts a deal" in out
    assert "(unweighed)" in out and out.count("effective layouts") == 2
    assert "weighed at 0.1: length " in out and "weighed at 1: length " in out


def test_a_layout_misses_the_leader_s_holding_in_the_suit_led_worked_out_by_hand() -> None:
    from bench.strength_bridge_lead_reading import misses
    from bot.games.cards import parse_hand
    real = parse_hand("KQJT9.732.84.652")
    layout = parse_hand("KT32.AQ9.J84.652")
    # Spades: length 5 vs 4; honour points K+Q+J = 6 vs K = 3; honours {K,Q,J,T} vs {K,T}.
    assert misses(layout, real, 3) == [1, 3, 2]
    assert misses(real, real, 3) == [0, 0, 0]


def test_a_team_board_is_contested_when_both_sides_call() -> None:
    from bench.strength_bridge_team import contested
    from bot.ai.bridge.bidding.context import empty_auction
    from bot.games.bridge_auction import CALL_BY_TEXT

    def auction(*texts: str):
        made = empty_auction(0)
        for i, text in enumerate(texts):
            made.call(i % 4, CALL_BY_TEXT[text])
        return made

    assert not contested(auction("bid:1H", "pass", "bid:2H", "pass"))
    assert contested(auction("bid:1H", "bid:1S"))
    assert contested(auction("bid:1H", "double"))
    assert not contested(auction("pass", "pass", "bid:1NT", "pass"))



def test_bridge_play_strength_bids_as_served_when_asked_and_keeps_the_two_apart(
        tmp_path: Path) -> None:
    served, basic = tmp_path / "served.jsonl", tmp_path / "basic.jsonl"
    args = ("bench.strength", "bridge-play", "--deals", "2", "--kinds", "bridge-basic",
            "--sd-matches", "0", "--tricks", "1")
    out = _run(*args, "--bidders", "bridge-advanced", "--record", str(served), timeout=120)
    assert "(passed-out seeds skipped), bid by bridge-advanced;" in out
    deals = [json.loads(line) for line in served.read_text().splitlines()]
    assert [d["bidders"] for d in deals] == ["bridge-advanced"] * 2
    # The same record resumes only the deals bid by the same players.
    again = _run(*args, "--bidders", "bridge-advanced", "--record", str(served), timeout=120)
    assert "resumed: 2 deals and matches already in" in again
    # Bid by the rule-based players, the same seeds are other deals to play.
    shutil.copy(served, basic)
    other = _run(*args, "--record", str(basic), timeout=120)
    assert "resumed:" not in other and "bid by bridge-basic;" in other
    basic.write_text("".join(line + "\n" for line in basic.read_text().splitlines()[2:]))
    refused = subprocess.run([sys.executable, "-m", "bench.strength", "bridge-play",
                              "--paired", str(basic), str(served)], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1
    assert ("the records' deals were bid by different players (bridge-advanced, "
            "bridge-basic): nothing to compare") in refused.stdout


@pytest.mark.parametrize("bench", ["bridge-defence", "bridge-lead-play"])
def test_decision_benches_bid_as_served_when_asked_and_keep_their_records_apart(
        bench: str, tiny_defence_model: Path, tmp_path: Path) -> None:
    record = tmp_path / "served.jsonl"
    own = (("--model", str(tiny_defence_model)) if bench == "bridge-defence"
           else ("--tricks", "2"))
    out = _run("bench.strength", bench, *own, "--think", "0.2", "--deals", "1",
               "--first-seed", "12", "--bidders", "bridge-advanced", "--record", str(record),
               timeout=180)
    assert "; auctions by bridge-advanced" in out
    served = json.loads(record.read_text())
    assert served["bidders"] == "bridge-advanced"
    # A record made before the bidders were recorded was bid by the rule-based players.
    older = {k: v for k, v in served.items() if k != "bidders"} | {"seed": 99}
    record.write_text(json.dumps(served) + "\n" + json.dumps(older) + "\n")
    refused = subprocess.run([sys.executable, "-m", "bench.strength", bench, "--report",
                              str(record)], cwd=ROOT, capture_output=True, text=True,
                             timeout=60)
    assert refused.returncode != 0 and "bridge-advanced" in refused.stderr
    assert "bridge-basic" in refused.stderr


def test_a_deal_set_s_deal_is_bid_once_and_each_play_of_it_starts_from_the_same_auction(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from bench import strength_bridge_play as bench

    deals = bench.deal_set(1, 2)
    fresh = bench.bid_out(1)
    assert fresh is not None
    bid_anew = bench.play_deal(1, fresh, "bridge-basic", 0.2, tricks=2)
    calls_before = list(deals[1].view(None).calls)

    def no_second_auction(seed: int, bidders: str = "bridge-basic") -> None:
        raise AssertionError(f"deal {seed} bid again")

    monkeypatch.setattr(bench, "bid_out", no_second_auction)
    # Each kind's play takes a copy: the deal set's game stays as it was bid.
    for _ in range(2):
        played = bench.play_deal(1, deals[1], "bridge-basic", 0.2, tricks=2)
        assert played["contract"] == bid_anew["contract"]
        assert played["losses"] == bid_anew["losses"] and played["cards"] == 8
    assert list(deals[1].view(None).calls) == calls_before and deals[1].phase == "play"
    assert not deals[1].view(None).played
