"""Training entry points for the shipped ONNX models (see models/README.md).

Needs the `train` extra (torch); the runtime never imports this package.
"""
