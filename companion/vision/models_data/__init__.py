"""Files the vision layer ships: the ONNX models (links to models/, copied into a built
wheel; see models/README.md) and the demo deck profile."""
