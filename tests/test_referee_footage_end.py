"""When a recording ends, its last settled board is final: a play lying made and legal with the dice still down (the
recording stopped before the pickup was seen) is the record, and a last bear-off ends the game.  Nothing else is
decided by the end: an illegal play or one not finished is left, and no call is made.  A board that moved after its
last reading is not known, so nothing is taken from it.  Written by hand from the rules and the physical picture."""

import numpy as np

from engine.game import Phase
from opening_scene import DARK, DARK_DICE, PLAYED, START, board, dark_to_play
from referee.core import Outcome, Seen, observe
from referee.pipeline import FramePipeline, run_source
from vision.reading import Reading

TOO_FAR = {**START, 13: 3, 8: 4, 10: 1}  # 13/8 13/10: the 2 moved three pips


def test_a_legal_play_lying_made_with_the_dice_down_is_recorded_when_the_footage_ends():
    ref = dark_to_play()
    last = Seen(board=board(PLAYED), dice=DARK_DICE)
    ref, out = observe(ref, last)
    assert not out.events  # the turn is not over while the dice lie
    ref, out = observe(ref, Seen(board=last.board, dice=last.dice, final=True))
    assert [type(e).__name__ for e in out.events] == ["Move"] and not out.calls
    assert ref.game.turn == 1 and ref.game.phase is Phase.ROLL


def test_an_illegal_play_lying_when_the_footage_ends_is_left_uncalled_and_unrecorded():
    ref = dark_to_play()
    last = Seen(board=board(TOO_FAR), dice=DARK_DICE)
    ref, _ = observe(ref, last)
    ref, out = observe(ref, Seen(board=last.board, dice=last.dice, final=True))
    assert out.events == () and out.calls == ()
    assert ref.game.turn == 0 and ref.game.phase is Phase.MOVE


def test_the_end_of_footage_adds_nothing_once_the_play_was_judged():
    ref = dark_to_play()
    ref, _ = observe(ref, Seen(board=board(PLAYED), dice=DARK_DICE))
    ref, out = observe(ref, Seen(board=board(PLAYED)))  # picked up: judged
    assert [type(e).__name__ for e in out.events] == ["Move"]
    ref, out = observe(ref, Seen(board=board(PLAYED), final=True))
    assert out.events == () and out.calls == () and ref.game.turn == 1


# --- the frame loop: the last settled reading goes again, marked final, only if the board lay still since ---

def reading(points: dict[int, int], dice: list[tuple[int, str]]) -> Reading:
    return Reading.from_json({
        "points": [points.get(i, 0) for i in range(1, 25)], "bar": {"dark": 0, "light": 0}, "off": {"dark": 0, "light": 0},
        "dice": [{"value": v, "flat": True, "half": h} for v, h in dice], "cube": {"value": 1, "position": "centre"}})


class Kept:
    def __init__(self) -> None:
        self.items: list[Seen] = []

    def handle(self, item: Seen) -> Outcome:
        self.items.append(item)
        return Outcome()


class Frames:
    name = "frames"

    def __init__(self, frames: list[np.ndarray]) -> None:
        self._frames = frames

    def open(self) -> None: ...

    def close(self) -> None: ...

    def frames(self):
        yield from ((i / 5.0, f) for i, f in enumerate(self._frames))


def frame(level: int) -> np.ndarray:
    out = np.full((120, 200, 3), 90, np.uint8)
    out[30:90, 40:160] = level  # a board whose look changes with what lies on it
    return out


def test_the_recording_ends_on_a_still_board_the_last_reading_goes_again_as_final():
    kept = Kept()
    seen = reading(PLAYED, [(5, DARK), (2, DARK)])
    run_source(Frames([frame(150)] * 8), FramePipeline(lambda f: seen, kept))
    assert [i.final for i in kept.items] == [False, True]
    assert kept.items[1].board == kept.items[0].board and kept.items[1].dice == kept.items[0].dice


def test_the_recording_ends_while_the_board_moves_nothing_is_final():
    kept = Kept()
    seen = reading(PLAYED, [(5, DARK), (2, DARK)])
    frames = [frame(150)] * 8 + [frame(40), frame(200)]  # a hand over it as the recording stops
    run_source(Frames(frames), FramePipeline(lambda f: seen, kept))
    assert [i.final for i in kept.items] == [False]
