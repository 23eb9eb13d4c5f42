"""Files the vision layer ships: ONNX models and deck profiles (see models/README.md)."""
