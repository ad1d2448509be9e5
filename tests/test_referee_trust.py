"""The referee's thresholds on a reading live in one place, each with its reason."""

from dataclasses import fields

from referee import core
from referee.trust import REASONS, TRUST, Trust
from vision.reading import Reading


def test_every_threshold_has_a_reason() -> None:
    assert set(REASONS) == {f.name for f in fields(Trust)}
    assert all(len(reason) > 40 for reason in REASONS.values())


def test_the_referee_applies_the_configured_thresholds() -> None:
    assert (core.SURE, core.UNSURE_RUN, core.NEAR) == (TRUST.sure, TRUST.unsure_run, TRUST.near)


def test_a_point_below_the_sure_cut_is_unsure_and_one_at_it_is_not() -> None:
    reading = {
        "points": [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2],
        "bar": {"dark": 0, "light": 0}, "off": {"dark": 0, "light": 0}, "dice": [], "cube": None,
        "confidence": {"points": [1.0] * 5 + [TRUST.sure - 0.01, TRUST.sure] + [1.0] * 17},
    }
    assert core.Seen.from_reading(Reading.from_json(reading)).unsure_points == frozenset({6})
