"""The signal vocabulary: what each call lights, timed signals, the table's readability."""

from __future__ import annotations

import json

import pytest

from firmware_bridge import SIGNAL_TABLE, InvalidSignalError, InvalidSpotError, Layout, Pattern, Signals, SimulatedBoard
from firmware_bridge.layout import LED_NAMES, parse_spots
from firmware_bridge.signals import status_look


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def board():
    return SimulatedBoard()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def signals(board, clock):
    return Signals(board, clock)


def looks(board):
    return {name: (light.colour.name, light.pattern) for name, light in board.current.lit().items()}


def test_illegal_play_blinks_the_offending_points_red_and_darkens_the_rest(signals, board):
    signals.your_turn("dark")
    signals.cube(4, "light")
    signals.illegal_play([13, "7", "bar-dark"])
    assert looks(board) == {n: ("red", Pattern.BLINK_FAST) for n in ("13", "7", "bar-dark")}
    signals.clear()
    assert looks(board) == {
        "turn-dark": ("white", Pattern.SOLID),
        "cube-4": ("white", Pattern.SOLID),
        "cube-owner-light": ("white", Pattern.SOLID),
    }


def test_play_accepted_is_brief(signals, board, clock):
    signals.play_accepted([8, 5])
    assert looks(board) == {"8": ("green", Pattern.DOUBLE), "5": ("green", Pattern.DOUBLE)}
    clock.t += 0.99
    signals.tick()
    assert len(board.states) == 1  # nothing changed yet, nothing re-sent
    clock.t += 0.02
    signals.tick()
    assert looks(board) == {}


def test_teaching_shows_sources_green_and_destinations_blue(signals, board):
    signals.teaching(sources=[24, 13], destinations=[18, 20])
    assert looks(board) == {
        "24": ("green", Pattern.SOLID),
        "13": ("green", Pattern.SOLID),
        "18": ("blue", Pattern.BLINK_SLOW),
        "20": ("blue", Pattern.BLINK_SLOW),
    }


def test_reroll_flashes_the_rollers_seat_and_the_bar(signals, board):
    signals.your_turn("light")
    signals.reroll_needed("light")
    assert looks(board) == {n: ("amber", Pattern.DOUBLE) for n in ("turn-light", "bar-dark", "bar-light")}


@pytest.mark.parametrize("value,owner,expected", [
    (1, None, set()),
    (2, "dark", {"cube-2", "cube-owner-dark"}),
    (64, "light", {"cube-64", "cube-owner-light"}),
])
def test_cube_value_and_owner(signals, board, value, owner, expected):
    signals.cube(value, owner)
    assert set(looks(board)) == expected


def test_camera_fault_overrides_everything_on_the_strip_and_the_status_led(signals, board):
    signals.teaching([6])
    signals.camera_fault()
    assert looks(board) == {n: ("white", Pattern.TRIPLE) for n in ("bar-dark", "bar-light", "turn-dark", "turn-light")}
    assert status_look(signals.scene).signal == "status-camera-fault"
    signals.controller_fault()
    assert status_look(signals.scene).signal == "status-controller-fault"
    signals.camera_fault(False)
    signals.controller_fault(False)
    assert status_look(signals.scene).signal == "status-ok"
    assert set(looks(board)) == {"6"}


@pytest.mark.parametrize("call", [
    lambda s: s.illegal_play([25]),
    lambda s: s.illegal_play(["bar"]),
    lambda s: s.teaching([0]),
    lambda s: s.your_turn("white"),
    lambda s: s.cube(3),
    lambda s: s.cube(2, "nobody"),
])
def test_bad_arguments_raise_clear_value_errors(signals, call):
    with pytest.raises(InvalidSignalError) as info:
        call(signals)
    assert isinstance(info.value, ValueError)
    assert "use" in str(info.value)  # says what would be right


def test_spot_parsing():
    assert parse_spots("13, 7,bar-light") == ("13", "7", "bar-light")
    with pytest.raises(InvalidSpotError, match="'x'"):
        parse_spots("13,x")


def test_point_signals_differ_by_pattern_not_only_by_colour():
    on_points = ["illegal", "accepted", "teach-source", "teach-destination", "look"]
    assert len({SIGNAL_TABLE[s].pattern for s in on_points}) == len(on_points)
    status = [s for s in SIGNAL_TABLE if s.startswith("status-")]
    assert len({SIGNAL_TABLE[s].pattern for s in status}) == len(status)
    seat_and_bar = ["turn", "reroll", "camera-fault"]
    assert len({SIGNAL_TABLE[s].pattern for s in seat_and_bar}) == len(seat_and_bar)


def test_layout_puts_every_led_once_and_points_across_the_board():
    for home in ("right", "left"):
        order = Layout(home).order
        assert sorted(order) == sorted(LED_NAMES) and len(order) == 36
        # point n and point 25 - n face each other across the board
        assert all(order.index(str(n)) + order.index(str(25 - n)) == 35 for n in range(1, 13))
    assert Layout("right").index("1") == 12 and Layout("left").index("1") == 0


def test_simulated_board_text_and_json(signals, board):
    signals.illegal_play([13, 7])
    text = board.text()
    assert text.count("R!") == 2 and "13               red blink-fast" in text
    data = json.loads(board.json(t_ms=0))
    assert data["leds"]["13"] == {"colour": "red", "rgb": [255, 0, 0], "pattern": "blink-fast", "on": True}
    assert data["leds"]["12"]["pattern"] == "off" and len(data["leds"]) == 36
    assert json.loads(board.json(t_ms=200))["leds"]["13"]["on"] is False


def test_simulated_board_assert_states(signals, board):
    signals.your_turn("dark")
    board.assert_states(list(board.states))
    with pytest.raises(AssertionError):
        board.assert_states([])


def test_signals_drive_the_status_light(board, clock):
    class Recorder:
        def __init__(self):
            self.looks, self.ticks = [], 0

        def show(self, look):
            self.looks.append(look.signal)

        def tick(self):
            self.ticks += 1

    status = Recorder()
    signals = Signals(board, clock, status=status)
    signals.controller_fault(True)
    signals.tick()
    signals.controller_fault(False)
    assert status.looks == ["status-controller-fault", "status-ok"]
    assert status.ticks == 3


def test_look_needed_flashes_amber_where_in_doubt(signals, board):
    signals.look_needed([13, "bar-dark"])
    assert looks(board)["13"] == ("amber", Pattern.TRIPLE) and looks(board)["bar-dark"] == ("amber", Pattern.TRIPLE)
    signals.look_needed()
    assert set(looks(board)) >= {"bar-dark", "bar-light"}


def test_a_signal_given_by_kind_lights_what_its_call_lights(board, clock):
    from firmware_bridge import SignalKind

    by_kind = Signals(board, clock)
    by_kind.show(SignalKind.YOUR_TURN, "dark")
    by_kind.show("cube", 4, "light")  # its name is accepted too
    by_kind.show(SignalKind.ILLEGAL_PLAY, [13, 7])
    assert looks(board) == {n: ("red", Pattern.BLINK_FAST) for n in ("13", "7")}
    by_kind.show(SignalKind.CLEAR)
    assert looks(board) == {"turn-dark": ("white", Pattern.SOLID), "cube-4": ("white", Pattern.SOLID), "cube-owner-light": ("white", Pattern.SOLID)}
    by_kind.show(SignalKind.REROLL_NEEDED, "dark")
    assert looks(board)["bar-light"] == ("amber", Pattern.DOUBLE)


def test_every_signal_kind_is_shown_by_the_method_of_its_name(signals, board):
    from firmware_bridge import SignalKind

    args = {SignalKind.YOUR_TURN: ("dark",), SignalKind.REROLL_NEEDED: ("light",), SignalKind.CUBE: (2, "dark"),
            SignalKind.ILLEGAL_PLAY: ([5],), SignalKind.TEACHING: ([6], [4])}
    for kind in SignalKind:
        assert callable(getattr(Signals, kind.value)), kind
        signals.show(kind, *args.get(kind, ()))


@pytest.mark.parametrize("name", ["look", "illegal", "Look_Needed", "reroll-needed", ""])
def test_a_misspelt_signal_is_refused_loudly(signals, name):
    with pytest.raises(InvalidSignalError, match="is not a signal"):
        signals.show(name)


def test_the_referee_refuses_a_misspelt_signal_where_it_is_made():
    from firmware_bridge import SignalKind
    from referee.core import Signal

    assert Signal("look_needed").kind is SignalKind.LOOK_NEEDED
    with pytest.raises(ValueError):
        Signal("look_neded")


def test_every_signals_method_that_shows_something_is_a_signal_kind():
    from firmware_bridge import SignalKind

    methods = {name for name in vars(Signals) if not name.startswith("_") and callable(getattr(Signals, name))}
    assert methods - {"show", "tick"} == {kind.value for kind in SignalKind}, "add the new method to SignalKind and _ACTIONS"
