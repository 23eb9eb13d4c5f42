"""Tracker hysteresis on scripted reading sequences (pure data, no images)."""

import numpy as np
import pytest

from companion.vision.calibration import Calibration
from companion.vision.tracker import Tracker
from companion.vision.types import CardReading

SEATS = Calibration(seats={"Alia": (200.0, 600.0), "Ben": (1000.0, 600.0), "Carmen": (600, 100)})


def card(
    x: float,
    y: float,
    face: str = "down",
    rank: int | None = None,
    conf: float = 0.95,
    suit: str | None = None,
    label: str | None = None,
) -> CardReading:
    """A 100x140 card centred on (x, y)."""
    corners = np.array(
        [[x - 50, y - 70], [x + 50, y - 70], [x + 50, y + 70], [x - 50, y + 70]], np.float32
    )
    return CardReading(
        corners, face, rank, suit, label or ("back" if face == "down" else "x"), conf
    )  # type: ignore[arg-type]


def run(tracker: Tracker, frames: list[list[CardReading]]):
    return [tracker.update(i, i / 30, f) for i, f in enumerate(frames)]


def table(flip_rank: int | None = None, jitter: float = 0.0) -> list[CardReading]:
    """Alia has a card face down (or up with flip_rank), Ben one down, Carmen one down."""
    a = card(200 + jitter, 600, "up", flip_rank) if flip_rank else card(200 + jitter, 600)
    return [a, card(1000 - jitter, 600), card(600, 100 + jitter)]


def test_cards_confirm_after_three_frames() -> None:
    states = run(Tracker(SEATS), [table()] * 4)
    assert states[0].seats["Alia"].face_down == 0
    assert states[1].seats["Alia"].face_down == 0 and not states[1].settled
    assert states[2].seats["Alia"].face_down == 1
    assert states[3].settled
    assert {n: v.face_down for n, v in states[3].seats.items()} == {
        "Alia": 1,
        "Ben": 1,
        "Carmen": 1,
    }


def test_empty_seats_are_listed() -> None:
    state = Tracker(SEATS).update(0, 0.0, [])
    assert set(state.seats) == {"Alia", "Ben", "Carmen"}
    assert state.settled


def test_real_flip_is_accepted_within_five_frames() -> None:
    tracker = Tracker(SEATS)
    run(tracker, [table()] * 5)
    states = [tracker.update(5 + i, 0, table(flip_rank=3, jitter=i)) for i in range(5)]
    accepted = next(i for i, s in enumerate(states) if s.seats["Alia"].face_up)
    assert accepted <= 4
    assert states[accepted].seats["Alia"].face_up[0].rank == 3
    assert states[accepted].seats["Alia"].face_down == 0
    assert not states[0].settled  # a change was pending
    assert states[-1].settled


def test_one_misread_frame_changes_nothing() -> None:
    tracker = Tracker(SEATS)
    run(tracker, [table()] * 5)
    misread = table()
    misread[1] = card(1000, 600, "up", 5)
    for i, frame in enumerate([misread, table(), table(), table()]):
        state = tracker.update(10 + i, 0, frame)
        assert state.seats["Ben"].face_down == 1 and not state.seats["Ben"].face_up
    assert state.settled


def test_a_blurred_frame_with_no_cards_changes_nothing() -> None:
    tracker = Tracker(SEATS)
    run(tracker, [table()] * 5)
    blurred = tracker.update(10, 0, [])
    assert not blurred.settled
    assert sum(v.face_down for v in blurred.seats.values()) == 3
    assert tracker.update(11, 0, table()).settled


def test_a_hand_passing_over_the_table_keeps_every_card() -> None:
    tracker = Tracker(SEATS)
    run(tracker, [table()] * 5)
    # The hand covers Alia's and Ben's cards for 20 frames, Carmen's stays visible.
    for i in range(20):
        state = tracker.update(10 + i, 0, [card(600, 100)])
        assert not state.settled
        assert state.seats["Alia"].face_down == 1 and state.seats["Ben"].face_down == 1
    state = tracker.update(40, 0, table())
    assert state.settled
    assert {n: v.face_down for n, v in state.seats.items()} == {"Alia": 1, "Ben": 1, "Carmen": 1}


def test_a_card_taken_away_is_dropped_after_five_misses() -> None:
    tracker = Tracker(SEATS)
    run(tracker, [table()] * 5)
    gone = table()[1:]
    states = [tracker.update(10 + i, 0, gone) for i in range(6)]
    assert states[3].seats["Alia"].face_down == 1 and not states[3].settled
    assert states[4].seats["Alia"].face_down == 0
    assert states[5].settled


def test_table_cleared_at_the_end_of_a_round() -> None:
    tracker = Tracker(SEATS)
    run(tracker, [table()] * 5)
    states = [tracker.update(10 + i, 0, []) for i in range(60)]
    assert sum(v.face_down for v in states[-1].seats.values()) == 0
    assert states[-1].settled


def test_low_confidence_readings_never_change_a_card() -> None:
    tracker = Tracker(SEATS)
    run(tracker, [table()] * 5)
    doubtful = table()
    doubtful[0] = card(200, 600, "up", 2, conf=0.2)
    for i in range(6):
        state = tracker.update(10 + i, 0, doubtful)
    assert state.seats["Alia"].face_down == 1
    assert "Alia" in state.uncertain


def test_face_up_card_reports_rank_suit_and_confidence() -> None:
    tracker = Tracker(SEATS)
    up = [card(200, 600, "up", 1, conf=0.9, suit="spades", label="A of spades")]
    state = run(tracker, [up] * 4)[-1]
    (seen,) = state.seats["Alia"].face_up
    assert (seen.rank, seen.suit) == (1, "spades")
    assert 0.85 < seen.confidence <= 1.0
    assert seen.center == pytest.approx((200, 600))


def test_cards_outside_max_distance_are_unseated() -> None:
    seats = Calibration(seats={"Alia": (200.0, 600.0)}, max_distance=150)
    state = run(Tracker(seats), [[card(200, 600), card(1200, 100)]] * 3)[-1]
    assert state.seats["Alia"].face_down == 1
    assert state.unseated == 1


def test_neighbouring_cards_in_one_seat_stay_separate() -> None:
    row = [card(100, 600), card(200, 600), card(300, 600)]
    state = run(Tracker(SEATS), [row] * 3)[-1]
    assert state.seats["Alia"].face_down == 3


def test_plain_function_seats_and_bad_settings() -> None:
    tracker = Tracker(lambda p: "left" if p[0] < 640 else "right", seat_names=["left", "right"])
    state = run(tracker, [table()] * 3)[-1]
    assert state.seats["left"].face_down == 2 and state.seats["right"].face_down == 1
    with pytest.raises(ValueError, match="confirm"):
        Tracker(SEATS, confirm=0)
    with pytest.raises(TypeError, match="Calibration"):
        Tracker(42)


def test_an_unreadable_card_exists_but_its_seat_is_uncertain() -> None:
    unreadable = [card(600, 100, "up", None, conf=0.1, label="other")]
    state = run(Tracker(SEATS), [unreadable] * 3)[-1]
    assert len(state.seats["Carmen"].face_up) == 1
    assert state.uncertain == ("Carmen",)


def test_identity_at_confirmation_is_the_trusted_majority() -> None:
    frames = [
        [card(200, 600, "up", 2, conf=0.9)],
        [card(200, 600, "up", 4, conf=0.3)],  # doubtful: not counted
        [card(200, 600, "up", 2, conf=0.8)],
    ]
    state = run(Tracker(SEATS), frames)[-1]
    assert [c.rank for c in state.seats["Alia"].face_up] == [2]
    assert state.seats["Alia"].face_up[0].confidence == pytest.approx(0.85)


def test_a_one_frame_phantom_does_not_unsettle_the_table() -> None:
    tracker = Tracker(SEATS)
    run(tracker, [table()] * 5)
    state = tracker.update(10, 0, [*table(), card(640, 400)])
    assert state.settled
    assert state.unseated == 0 and sum(v.face_down for v in state.seats.values()) == 3
    appearing = tracker.update(11, 0, [*table(), card(640, 400)])
    assert not appearing.settled


def test_a_never_trusted_card_follows_its_consistent_doubtful_reading() -> None:
    tracker = Tracker(SEATS)
    run(tracker, [[card(600, 100, "up", None, conf=0.0, label="other")]] * 3)
    for i in range(3):
        state = tracker.update(10 + i, 0, [card(600, 100, "up", 1, conf=0.4, label="bear")])
    assert [c.rank for c in state.seats["Carmen"].face_up] == [1]
    assert state.uncertain == ("Carmen",)  # still below min_confidence
    # Once trusted, doubtful readings no longer move it.
    for i in range(3):
        tracker.update(20 + i, 0, [card(600, 100, "up", 1, conf=0.9, label="bear")])
    for i in range(4):
        state = tracker.update(30 + i, 0, [card(600, 100, "up", 2, conf=0.4, label="wolf")])
    assert [c.rank for c in state.seats["Carmen"].face_up] == [1]


def test_new_anchors_reseat_the_cards_followed() -> None:
    tracker = Tracker(SEATS)
    run(tracker, [table()] * 3)
    moved = Calibration(
        seats={"Alia": (1000.0, 600.0), "Ben": (200.0, 600.0), "Carmen": (600, 100)}
    )
    tracker.use_seats(moved)
    state = tracker.update(5, 0, table())
    assert [v.face_down for v in state.seats.values()] == [1, 1, 1]
    assert [t.seat for t in tracker.tracks] == ["Ben", "Alia", "Carmen"]


def test_ignored_cards_leave_the_state_and_new_cards_still_count() -> None:
    """A card the camera keeps seeing where the table is clear: the table says so once,
    then that card is no longer counted; a card laid later in the same seat is."""
    tracker = Tracker(SEATS)
    stuck = card(200, 600)
    run(tracker, [[stuck]] * 4)
    assert tracker.update(4, 0, [stuck]).seats["Alia"].face_down == 1
    assert tracker.ignore(["Alia"]) == 1
    state = tracker.update(5, 0, [stuck])
    assert state.seats["Alia"].face_down == 0 and state.settled
    laid = card(320, 600)  # a new card beside the ignored one
    states = [tracker.update(6 + i, 0, [stuck, laid]) for i in range(3)]
    assert states[-1].seats["Alia"].face_down == 1
    # the ignored card taken away, then a card laid on its spot: a new card, counted
    run(tracker, [[laid]] * 6)
    states = [tracker.update(20 + i, 0, [laid, stuck]) for i in range(3)]
    assert states[-1].seats["Alia"].face_down == 2
