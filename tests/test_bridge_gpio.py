"""Buttons and the status LED through gpiozero's mock pin factory, with a fake clock."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import ButtonPanel, ButtonPress, PinMap, StatusLight, open_buttons, open_status_led
from firmware_bridge.gpio import Debounce
from firmware_bridge.signals import SIGNAL_TABLE


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def clock():
    return type("Clock", (), {"t": 0.0, "__call__": lambda self: self.t})()


@pytest.fixture
def panel(factory, clock):
    return ButtonPanel(open_buttons(PinMap(), pin_factory=factory), clock)


def press(factory, pin, clock, at):
    clock.t = at
    factory.pin(pin).drive_low()


def release(factory, pin, clock, at):
    clock.t = at
    factory.pin(pin).drive_high()


def test_a_bouncing_press_counts_once(factory, panel, clock):
    accept = PinMap().accept
    press(factory, accept, clock, 1.000)
    release(factory, accept, clock, 1.004)  # contact bounce
    press(factory, accept, clock, 1.006)
    clock.t = 1.020
    assert panel.poll() == []  # not yet stable for 30 ms
    clock.t = 1.040
    assert panel.poll() == [ButtonPress("accept", 1.006)]
    release(factory, accept, clock, 1.200)
    clock.t = 1.300
    assert panel.poll() == []


def test_a_glitch_shorter_than_the_hold_is_ignored(factory, panel, clock):
    press(factory, PinMap().mode, clock, 2.0)
    release(factory, PinMap().mode, clock, 2.01)
    clock.t = 3.0
    assert panel.poll() == []


def test_a_press_is_not_lost_when_polled_late(factory, panel, clock):
    pins = PinMap()
    press(factory, pins.new_game, clock, 5.0)
    release(factory, pins.new_game, clock, 5.2)
    press(factory, pins.take_back, clock, 6.0)
    release(factory, pins.take_back, clock, 6.1)
    clock.t = 9.0
    assert panel.poll() == [ButtonPress("new-game", 5.0), ButtonPress("take-back", 6.0)]


@settings(derandomize=True, deadline=None)
@given(st.lists(st.floats(0.0005, 0.029), max_size=12))
def test_debounce_never_fires_on_bounces_shorter_than_the_hold(gaps):
    state, t, level, fired = Debounce(), 0.0, False, []
    for gap in gaps:
        t += gap
        level = not level
        state, change = state.step(t, level)
        fired.append(change)
    state, change = state.step(t + 0.0299, state.raw)
    assert set(fired + [change]) <= {None}
    assert state.step(t + 0.031, state.raw)[1] == (state.raw if state.raw != state.stable else None)


def test_status_light_shows_a_looks_pattern_with_an_injected_clock(clock):
    factory = MockFactory()
    try:
        led = open_status_led(PinMap(), pin_factory=factory, common_anode=False)
        light = StatusLight(led, clock)
        light.show(SIGNAL_TABLE["status-controller-fault"])  # red fast blink
        assert led.color == (1, 0, 0)
        assert factory.pin(PinMap().status_red).state == 1
        clock.t = 0.2
        assert light.tick() == (0, 0, 0) and led.color == (0, 0, 0)
        light.show(SIGNAL_TABLE["status-ok"])
        assert light.tick() == (0, 1, 0)
    finally:
        factory.reset()


def test_common_anode_status_led_drives_pins_low_to_light(clock):
    factory = MockFactory()
    try:
        led = open_status_led(PinMap(), pin_factory=factory, common_anode=True)
        StatusLight(led, clock).show(SIGNAL_TABLE["status-ok"])
        assert factory.pin(PinMap().status_green).state == 0
        assert factory.pin(PinMap().status_red).state == 1
    finally:
        factory.reset()
