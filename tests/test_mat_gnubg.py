"""GNU Backgammon as the oracle for the .mat writer and the replay, on every shared match.

* Our ``.mat`` output, imported by gnubg (``import mat``, then
  ``gnubg.match(analysis=0, boards=1)``), gives the same games: each move's
  player, dice, Position ID before it and hops; each cube action and
  resignation; each game's winner, points and whether it was resigned.
* Stepping through gnubg's imported match (``gnubg.navigate``), the GNUbgID
  (Position ID and Match ID: cube, owner, turn, dice, score, Crawford) before
  every move and cube action equals ours.
* gnubg reads every original file (bare `` Losses N point`` lines removed:
  after one, gnubg's importer re-reads the previous line's right-hand move, a
  stale column pointer) as the same plays as ours, play for play.
* Where we read a result's points as stated and the rules give others (a
  forfeit, the points needed for the match; our replay warns), gnubg keeps
  its own reckoning: those results are compared by winner only.
* gnubg's own ``export match mat`` of a match and ours have the same layout line
  by line; only the hops inside a play may differ, for the same play (gnubg keeps
  the hops it imported, ``13/11 11/5``; we write the higher die first, ``13/7
  7/5``; a last checker borne off from the 3 with 41 is ``3/0`` there and
  ``3/2 2/0`` here).
"""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from pathlib import Path

import pytest

from engine.mat import read_mat, write_mat
from engine.record import RecordedMove, RecordedResign, RecordedRoll
from engine.replay import MatchReplay, match_id

gnubg = pytest.importorskip("gnubg", reason="the gnubg package (x86-64 wheels only) is the oracle for these tests")

from test_mat_corpus import corpus

from referee import gnubg_link

PLAYER = {"X": 0, "O": 1}  # gnubg.match() names the first-listed player X

pytestmark = pytest.mark.slow  # GNU Backgammon replays every real match


@pytest.fixture(scope="module")
def oracle():
    return gnubg_link.require()


def _import(oracle, text: str, folder: Path) -> None:
    path = folder / "match.mat"
    path.write_text(text, encoding="utf-8")
    gnubg_link.run_command(f'import mat "{path}"')


_BARE_LOSSES = re.compile(r"^\s*Losses \d+ points?\s*$")


def _import_original(path: Path, folder: Path) -> None:
    """Import a real file with its bare ``Losses N point`` lines removed (gnubg
    re-reads the previous line's right-hand move after one)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    _import(None, "\n".join(line for line in lines if not _BARE_LOSSES.match(line)) + "\n", folder)


def _stated(done: MatchReplay) -> set[int]:
    """The games (from 0) whose result points we read as stated, with a warning."""
    return {k for k, game in enumerate(done.games) if game.warnings}


def _winners_only(games: list, stated: set[int]) -> list:
    return [(actions, (r[0], r[2]) if k in stated and r else r) for k, (actions, r) in enumerate(games)]


def ours(done: MatchReplay) -> list:
    games = []
    for game in done.games:
        actions = []
        for step in game.steps:
            a = step.action
            if isinstance(a, RecordedMove):
                assert step.play is not None
                hops = tuple(sorted((h.src, h.dst) for h in step.play.hops))
                actions.append(("move", a.player, tuple(sorted(a.dice)), step.before.position.id(), hops))
            elif isinstance(a, RecordedRoll):
                actions.append(("set", a.player, tuple(sorted(a.dice))))
            else:
                actions.append((type(a).__name__.removeprefix("Recorded").lower(), a.player))
        r = game.result
        games.append((actions, (r.winner, r.points, r.resigned) if r else None))
    return games


def theirs(match: dict) -> list:
    games = []
    for game in match["games"]:
        actions = []
        for a in game["game"]:
            kind, player = a["action"], PLAYER[a["player"]]
            if kind == "move":
                hops = tuple(sorted(tuple(h) for h in a["move"]))
                actions.append(("move", player, tuple(sorted(a["dice"])), a["board"], hops))
            elif kind == "set":
                actions.append(("set", player, tuple(sorted(a["dice"]))))
            else:
                actions.append((kind, player))
        info = game["info"]
        result = (PLAYER[info["winner"]], info["points-won"], info["resigned"]) if info.get("winner") else None
        games.append((actions, result))
    return games


def test_gnubg_reads_our_mat_output_as_the_same_games(oracle):
    compared = moves = 0
    with tempfile.TemporaryDirectory() as folder:
        for path, done in corpus().items():
            _import(oracle, write_mat(done.match), Path(folder))
            expected = ours(done)
            stated = _stated(done)
            assert _winners_only(theirs(oracle.match(analysis=0, boards=1)), stated) == _winners_only(expected, stated), path.name
            compared += len(expected)
            moves += sum(1 for game, _ in expected for a in game if a[0] == "move")
    assert (compared, moves) == (sum(len(d.games) for d in corpus().values()), sum(d.play_count() for d in corpus().values()))


def test_gnubg_ids_before_every_move_and_cube_action_agree(oracle):
    """gnubg shows a roll at which a player resigned (``Roll``) before its dice
    and the resignation itself from the previous turn, so those two steps are
    left out; every other step is compared."""
    compared = 0
    folder = Path(tempfile.mkdtemp())
    for path, done in corpus().items():
        _import_original(path, folder)
        oracle.navigate(game=-10_000)
        for k, game in enumerate(done.games):
            if k:
                oracle.navigate(game=1)
            for step in game.steps:
                if not isinstance(step.action, (RecordedRoll, RecordedResign)):
                    ours_id = f"{step.before.position.id()}:{match_id(step.before, game.score).encode()}"
                    assert oracle.gnubgid() == ours_id, f"{path.name} game {game.number} move {step.move}"
                    compared += 1
                oracle.navigate(next=1)
    assert compared > 50_000


_HOPS = re.compile(r"(?:\d+/\d+\*?)(?: \d+/\d+\*?)*")
_ITEM = re.compile(r"[1-6][1-6]:|Doubles|Takes|Drops|Wins")
_WINS = re.compile(r"Wins \d+ points?")


def _layout(text: str) -> list[tuple]:
    """Each line after the match-length line: where each item starts, and the
    text with each play's hops and each result's points masked, and our
    ``????`` after a roll not played left out (gnubg writes the bare roll, which
    its importer plays when only one play is possible) (points are
    compared by the import test; gnubg reads one Studio line, ``Wins 4016
    point`` with the cube on 4, as a backgammon resigned (12) where we read
    the least resignation that wins the match (4))."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "point match" in line)
    out = []
    for line in lines[start:]:
        columns = tuple(m.start() for m in _ITEM.finditer(line))
        masked = _WINS.sub("Wins <n>", _HOPS.sub("<play>", line.rstrip().replace(" ????", "")))
        out.append((columns, " ".join(masked.split())))
    return out


def test_our_layout_is_gnubgs_own_export_layout(oracle):
    checked = 0
    differ: list[tuple[str, int]] = []
    with tempfile.TemporaryDirectory() as folder:
        for k, path in enumerate(sorted(corpus())[::7]):
            done = corpus()[path]
            exported = Path(folder) / f"gnubg{k}.mat"  # a new file: gnubg asks before overwriting
            _import_original(path, Path(folder))
            gnubg_link.run_command(f'export match mat "{exported}"')
            theirs_text = exported.read_text(encoding="utf-8")
            assert _layout(write_mat(done.match)) == _layout(theirs_text), path.name
            theirs_games = read_mat(theirs_text, str(exported)).games
            for g, (a, b) in enumerate(zip(theirs_games, done.match.games)):
                if a != b:
                    differ.append((path.name, g + 1))
                    # Only a result whose points we read as stated (see _layout).
                    assert g in _stated(done) and (a.actions[:-1], a.result.winner) == (b.actions[:-1], b.result.winner)
            checked += 1
    assert checked == 33
    assert ("Minchy - Llabba 13pt Backgammon Studio 2023_02_24 19_44_27.txt", 10) in differ


def _net(games: list) -> list:
    """Each move's hops as the checkers' net movement: a file's ``5/1 8/5`` is
    gnubg's 8/5 5/1 and our 8/4 4/1, the same play."""
    out = []
    for actions, result in games:
        moves = []
        for a in actions:
            if a[0] == "move":
                net: Counter[int] = Counter()
                for src, dst in a[4]:
                    net[src] -= 1
                    net[dst] += 1
                a = (*a[:4], tuple(sorted((p, n) for p, n in net.items() if n)))
            moves.append(a)
        out.append((moves, result))
    return out


def test_gnubg_reads_every_original_file_play_for_play_as_we_do(oracle):
    """Each real file imported by gnubg itself (bare ``Losses`` lines removed):
    every move's player, dice, position before it and checkers moved, every
    cube action and resignation, and each result (by winner where we read the
    points as stated) are ours."""
    plays = agreed = 0
    with tempfile.TemporaryDirectory() as folder:
        for path, done in corpus().items():
            _import_original(path, Path(folder))
            stated = _stated(done)
            mine = _net(_winners_only(ours(done), stated))
            gnubgs = _net(_winners_only(theirs(oracle.match(analysis=0, boards=1)), stated))
            for (my_actions, _), (their_actions, _) in zip(mine, gnubgs):
                my_moves = [a for a in my_actions if a[0] == "move"]
                their_moves = [a for a in their_actions if a[0] == "move"]
                plays += len(my_moves)
                agreed += sum(a == b for a, b in zip(my_moves, their_moves))
            assert gnubgs == mine, path.name
    assert plays == agreed == sum(d.play_count() for d in corpus().values())
