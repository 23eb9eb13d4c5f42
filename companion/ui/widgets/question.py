"""A question for the table (from the live referee), answered with one key.

The referee asks when the camera and the rules disagree (docs/design.md, "Questions for
the table"): `Question(id, announcement, answers)` with `Answer(key, label, action)`.
The panel shows the rendered announcement and one line per answer, and when one of the
answer keys is pressed it posts `QuestionPanel.Answered(question_id, action)`; the app
hands the action back to the referee. The panel knows nothing of the game: it never
decides, it only asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static


class AnswerLike(Protocol):
    """What the panel needs of `companion.referee.live.Answer`."""

    key: str
    label: str
    action: object


class QuestionLike(Protocol):
    """What the panel needs of `companion.referee.live.Question`."""

    id: Any
    answers: Sequence[AnswerLike]


class QuestionPanel(Static, can_focus=True):
    """Shows the open question, if any; hidden when there is none."""

    DEFAULT_CSS = """
    QuestionPanel {
        display: none;
        height: auto;
        border: heavy $warning;
        padding: 0 1;
        background: $warning 15%;
    }
    QuestionPanel.-open {
        display: block;
    }
    """

    class Answered(Message):
        """The table answered `question_id` with the answer's `action`."""

        def __init__(self, question_id: Any, action: object, key: str) -> None:
            super().__init__()
            self.question_id = question_id
            self.action = action
            self.key = key

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.question: QuestionLike | None = None

    def ask(self, question: QuestionLike, text: str) -> None:
        """Show `question` with its rendered announcement `text` and take the focus."""
        keys = [answer.key for answer in question.answers]
        if not keys or len(set(keys)) != len(keys) or any(len(key) != 1 for key in keys):
            raise ValueError(f"a question needs distinct one-character answer keys, got {keys}")
        self.question = question
        body = Text(text, style="bold")
        for answer in question.answers:
            body.append("\n")
            body.append(f" {answer.key} ", style="reverse bold")
            body.append(f" {answer.label}")
        self.update(body)
        self.add_class("-open")
        self.focus()

    def close(self) -> None:
        """Hide the panel (the question was answered or withdrawn)."""
        self.question = None
        self.update("")
        self.remove_class("-open")

    def answer_for(self, key: str) -> AnswerLike | None:
        """The answer bound to `key` in the open question, if any."""
        if self.question is None:
            return None
        return next((a for a in self.question.answers if a.key == key), None)

    def on_key(self, event: events.Key) -> None:
        answer = self.answer_for(event.character or event.key)
        if answer is None or self.question is None:
            return
        event.stop()
        event.prevent_default()
        self.post_message(self.Answered(self.question.id, answer.action, answer.key))
        self.close()
