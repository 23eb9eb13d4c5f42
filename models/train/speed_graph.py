"""Exact rewrites of an exported ONNX graph that make onnxruntime's CPU kernels cheaper.

    python -m models.train.speed_graph [--pad] FILE.onnx [FILE.onnx ...]   (in place)

Both rewrites give the same outputs up to float rounding (1e-5 on the shipped models), keep
every initializer as exported (same names, shapes and values, so the `load_onnx` of the
training code still reads the file) and leave an already rewritten file as it is:

- a nearest-neighbour `Resize` followed by a 1x1 `Conv` becomes the `Conv` then the
  `Resize` (a per-pixel map commutes with repeating pixels): the U-Nets' lateral 1x1
  convolutions then run on a quarter of the pixels;
- `--pad`: each convolution whose output channels are not a multiple of 16 and feed only
  ReLUs, max pools, nearest resizes, additions and other convolutions gets zero output
  channels up to the next multiple of 16 (its weight and bias go through a constant `Pad`
  node, which onnxruntime folds when it loads the model), and the convolutions reading
  them get zero input weights. onnxruntime's blocked (NCHWc, 16 channels with AVX-512)
  kernels then run the whole net without reordering between the layout and plain NCHW
  and without plain-NCHW max pools.

Every export of the training code applies them (`cards.export`, `embed.export` with
`--pad`; `finder.export` without: the U-Nets' 8-channel layers padded to 16 cost more);
the command rewrites a file exported before. Needs `onnx` (the `train` extra), not torch.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

BLOCK = 16
CHANNEL_WISE = {"Relu", "MaxPool", "Resize", "Add"}


def _attrs(node) -> dict:
    from onnx import helper

    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _consumers(graph) -> dict[str, list]:
    users: dict[str, list] = {}
    for node in graph.node:
        for name in node.input:
            users.setdefault(name, []).append(node)
    return users


def resize_after_pointwise(model):
    """Each nearest `Resize` whose only reader is a 1x1, stride-1, unpadded `Conv`, moved
    after that `Conv`."""
    graph = model.graph
    weights = {i.name: i for i in graph.initializer}
    users = _consumers(graph)
    order = list(graph.node)
    gone = set()
    for resize in list(order):
        if resize.op_type != "Resize" or _attrs(resize).get("mode", b"nearest") != b"nearest":
            continue
        readers = users.get(resize.output[0], [])
        if len(readers) != 1 or readers[0].op_type != "Conv":
            continue
        conv = readers[0]
        attrs = _attrs(conv)
        weight = weights.get(conv.input[1])
        if (
            conv.input[0] != resize.output[0]
            or weight is None
            or list(weight.dims[2:]) != [1, 1]
            or any(s != 1 for s in attrs.get("strides", [1, 1]))
            or any(attrs.get("pads", [0, 0, 0, 0]))
            or attrs.get("group", 1) != 1
        ):
            continue
        small = conv.output[0] + "_before_resize"
        gone.add(resize.output[0])
        conv.input[0], resize.output[0] = resize.input[0], conv.output[0]
        conv.output[0], resize.input[0] = small, small
        i, j = order.index(resize), order.index(conv)
        order[i], order[j] = conv, resize
    _set_nodes(graph, order)
    for info in [v for v in graph.value_info if v.name in gone]:
        graph.value_info.remove(info)
    return model


def pad_channels(model, block: int = BLOCK):
    """Zero channels up to a multiple of `block` where only channel-wise ops and
    convolutions see them (see the module's docstring)."""
    import numpy as np
    from onnx import helper, numpy_helper

    graph = model.graph
    weights = {i.name: i for i in graph.initializer}
    producer = {out: node for node in graph.node for out in node.output}
    users = _consumers(graph)
    outputs = {o.name for o in graph.output}
    # Tensors joined by channel-wise ops share one channel space (union-find).
    parent: dict[str, str] = {}

    def root(name: str) -> str:
        while parent.setdefault(name, name) != name:
            name = parent[name]
        return name

    for node in graph.node:
        if node.op_type in CHANNEL_WISE:
            joined = node.input[:2] if node.op_type == "Add" else node.input[:1]
            for name in [*joined, node.output[0]]:
                parent[root(name)] = root(node.output[0])
        elif node.op_type == "Conv":
            root(node.output[0])
    spaces: dict[str, set[str]] = {}
    for name in list(parent):
        spaces.setdefault(root(name), set()).add(name)

    def width(space: set[str]) -> int | None:
        """The channel count of a space that may be padded, else None."""
        channels = None
        for name in space:
            made = producer.get(name)
            if name in outputs or made is None:
                return None
            if made.op_type == "Conv":
                weight = weights.get(made.input[1])
                if weight is None or _attrs(made).get("group", 1) != 1:
                    return None
                channels = weight.dims[0]
            elif made.op_type not in CHANNEL_WISE:
                return None
            for user in users.get(name, []):
                reads_data = user.input[0] == name
                if user.op_type == "Conv" and reads_data and user.input[1] in weights:
                    continue
                if user.op_type in CHANNEL_WISE and (reads_data or user.op_type == "Add"):
                    continue
                return None
        return channels

    padded = {}
    for key, space in spaces.items():
        channels = width(space)
        if channels is not None and channels % block:
            padded[key] = -(-channels // block) * block
    if not padded:
        return model

    pad_nodes, pad_inits = [], []

    def pad_input(conv, index: int, axis: int, size: int) -> None:
        name = conv.input[index]
        rank = len(weights[name].dims)
        extra = size - weights[name].dims[axis]
        pads = np.zeros(2 * rank, np.int64)
        pads[rank + axis] = extra
        out = f"{name}_pad{axis}"
        amounts = numpy_helper.from_array(pads, f"{out}_amounts")
        pad_inits.append(amounts)
        pad_nodes.append(helper.make_node("Pad", [name, amounts.name], [out], name=f"pad_{out}"))
        conv.input[index] = out

    for conv in graph.node:
        if conv.op_type != "Conv":
            continue
        out_size = padded.get(root(conv.output[0]))
        in_size = padded.get(root(conv.input[0])) if conv.input[0] in parent else None
        if out_size is None and in_size is None:
            continue
        weight = numpy_helper.to_array(weights[conv.input[1]])
        if in_size is not None and out_size is not None:
            # Both axes: one Pad of the weight.
            pads = np.zeros(8, np.int64)
            pads[4], pads[5] = out_size - weight.shape[0], in_size - weight.shape[1]
            out = f"{conv.input[1]}_pad"
            amounts = numpy_helper.from_array(pads, f"{out}_amounts")
            pad_inits.append(amounts)
            pad_nodes.append(
                helper.make_node("Pad", [conv.input[1], amounts.name], [out], name=f"pad_{out}")
            )
            conv.input[1] = out
        elif out_size is not None:
            pad_input(conv, 1, 0, out_size)
        else:
            pad_input(conv, 1, 1, in_size)
        if out_size is not None and len(conv.input) > 2 and conv.input[2]:
            pad_input(conv, 2, 0, out_size)
    graph.initializer.extend(pad_inits)
    _set_nodes(graph, pad_nodes + list(graph.node))
    # The inferred shapes of the padded tensors are stale.
    stale = set().union(*(spaces[key] for key in padded))
    for info in [v for v in graph.value_info if v.name in stale]:
        graph.value_info.remove(info)
    return model


def _set_nodes(graph, nodes: list) -> None:
    import onnx

    copies = []
    for node in nodes:
        copy = onnx.NodeProto()
        copy.CopyFrom(node)
        copies.append(copy)
    del graph.node[:]
    graph.node.extend(copies)


def rewrite(path: Path, pad: bool) -> None:
    """Rewrite the ONNX file at `path` in place (both rewrites, or the first only)."""
    import onnx

    model = resize_after_pointwise(onnx.load(str(path)))
    if pad:
        model = pad_channels(model)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pad", action="store_true", help="also pad channels to 16")
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    for path in args.files:
        rewrite(path, args.pad)
        print(f"{path}: rewritten", file=sys.stderr)


if __name__ == "__main__":
    main()
