"""CardPipeline: the finder's quads go to the reader; quads holding no card are dropped."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import pipeline as pipeline_module
from companion.vision.decks import load_deck
from companion.vision.geometry import quad_iou
from companion.vision.pipeline import CardPipeline
from companion.vision.synth import CardSpec, SceneSpec, render_scene
from companion.vision.types import NOT_A_CARD, CardReading


def animal_scene() -> tuple[np.ndarray, list]:
    cards = tuple(
        CardSpec(
            deck="animals",
            rank=k + 1,
            face="up" if k < 3 else "down",
            center=(130.0 + 180.0 * k, 240.0),
            angle=20.0 * k,
            length=150.0,
            edition="classic",
        )
        for k in range(4)
    )
    return render_scene(SceneSpec(size=(800, 480), table="felt-dark", seed=5, cards=cards))


def test_reads_every_card_at_its_place():
    image, truths = animal_scene()
    readings = CardPipeline(load_deck("demo-animals")).read(image)
    assert len(readings) == len(truths)
    for truth in truths:
        assert max(quad_iou(r.corners, truth.corners) for r in readings) > 0.8
    assert all(isinstance(r, CardReading) for r in readings)


def test_quads_the_reader_calls_no_card_are_dropped(monkeypatch):
    class FussyReader:
        def __init__(self, deck):
            self.deck = deck

        def read_batch(self, image, quads):
            return [
                CardReading(q, "up", None, None, NOT_A_CARD if i == 0 else "other", 0.3)
                for i, q in enumerate(quads)
            ]

    monkeypatch.setattr(pipeline_module, "CardReader", FussyReader)
    image, truths = animal_scene()
    readings = CardPipeline(load_deck("demo-animals")).read(image)
    assert len(readings) == len(truths) - 1
    assert all(r.label == "other" for r in readings)


def test_empty_table_and_bad_input():
    pipeline = CardPipeline(load_deck("demo-animals"))
    assert pipeline.read(np.full((240, 320, 3), 60, np.uint8)) == []
    with pytest.raises(ValueError, match="BGR"):
        pipeline.read(np.zeros((10, 10), np.uint8))
