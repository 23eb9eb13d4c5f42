"""The shipped ONNX models, opened once per process on one thread.

One thread each: the frame loop owns one core, and speech and the UI share the other.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import onnxruntime as ort

# Links to the files in the repository's models/ (copies in a built wheel): models/README.md.
MODELS_DIR = Path(__file__).resolve().parent / "models_data"


@lru_cache(maxsize=8)
def model_session(path: Path) -> ort.InferenceSession:
    """The onnxruntime session of the model at `path`, built on first use."""
    if not path.is_file():
        raise FileNotFoundError(
            f"model {path} is missing: reinstall the package or retrain it (models/README.md)"
        )
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
