"""Reads dump files in CANN's layout (what aclInit's "dump" config writes, on OpenCANN or
on an NPU): a little-endian uint64 header length, a DumpData protobuf header, then the raw
bytes of every input and then every output.

    import ocann_dump
    d = ocann_dump.load("Conv.conv1.3.1700000000000000")
    d.op_name, d.outputs[0].array, d.outputs[0].original_name

Command line: python3 -m ocann_dump DUMP_DIR_OR_FILE [-o OUT_DIR] writes each tensor as
{file}.{input|output}.{index}.npy and prints one line per tensor.

The header is decoded here with a small protobuf wire reader rather than generated code, so
the reader runs wherever numpy does and skips fields it does not know (newer CANN versions
add some). Field numbers: src/dump/dump_data.proto.
"""
import argparse
import os
import struct
import sys

import numpy as np

# Dump-protocol data type numbers -> numpy (bfloat16 comes back as its uint16 bits).
DTYPES = {1: np.float32, 2: np.float16, 3: np.int8, 4: np.uint8, 5: np.int16, 6: np.uint16,
          7: np.int32, 8: np.int64, 9: np.uint32, 10: np.uint64, 11: np.bool_, 12: np.float64,
          27: np.uint16}
DTYPE_NAMES = {1: "float32", 2: "float16", 3: "int8", 4: "uint8", 5: "int16", 6: "uint16",
               7: "int32", 8: "int64", 9: "uint32", 10: "uint64", 11: "bool", 12: "float64",
               27: "bfloat16"}
FORMATS = {0: "NCHW", 1: "NHWC", 2: "ND", 3: "NC1HWC0", 4: "FRACTAL_Z", 27: "NDHWC",
           29: "FRACTAL_NZ"}


class DumpError(ValueError):
    pass


def _varint(buf, pos):
    value, shift = 0, 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise DumpError("truncated varint in the dump header")
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7


def _fields(buf):
    """Yields (field number, wire type, value) of one protobuf message."""
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 1:
            if pos + 8 > len(buf):
                raise DumpError("truncated fixed64 field")
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            length, pos = _varint(buf, pos)
            if pos + length > len(buf):
                raise DumpError("a field runs past the end of the dump header")
            value, pos = buf[pos:pos + length], pos + length
        elif wire == 5:
            if pos + 4 > len(buf):
                raise DumpError("truncated fixed32 field")
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise DumpError(f"unsupported protobuf wire type {wire}")
        yield number, wire, value


def _shape(buf):
    dims = []
    for number, wire, value in _fields(buf):
        if number == 1 and wire == 0:
            dims.append(value)
        elif number == 1 and wire == 2:  # packed
            pos = 0
            while pos < len(value):
                d, pos = _varint(value, pos)
                dims.append(d)
    return tuple(dims)


class Tensor:
    """One dumped tensor: array (numpy, in the dump's shape), dtype name, format, and for
    outputs the source-model op and output index it stands for."""

    def __init__(self):
        self.data_type, self.format_code, self.shape, self.size = 0, 0, (), 0
        self.original_name, self.original_output_index = "", -1
        self.array = None

    @property
    def dtype(self):
        return DTYPE_NAMES.get(self.data_type, f"code {self.data_type}")

    @property
    def format(self):
        return FORMATS.get(self.format_code, f"code {self.format_code}")


def _tensor(buf, is_output):
    t = Tensor()
    for number, wire, value in _fields(buf):
        if number == 1 and wire == 0:
            t.data_type = value
        elif number == 2 and wire == 0:
            t.format_code = value
        elif number == 3 and wire == 2:
            t.shape = _shape(value)
        elif is_output and number == 4 and wire == 2:
            t.original_output_index = 0  # proto3 leaves a zero index out
            for n2, w2, v2 in _fields(value):
                if n2 == 1 and w2 == 2:
                    t.original_name = v2.decode("utf-8", "replace")
                elif n2 == 2 and w2 == 0:
                    t.original_output_index = v2
        elif number == (6 if is_output else 5) and wire == 0:
            t.size = value
    return t


class DumpFile:
    def __init__(self):
        self.version, self.dump_time, self.op_name = "", 0, ""
        self.inputs, self.outputs = [], []


def parse(data, name="dump"):
    """Parses the bytes of one dump file; raises DumpError for a damaged one."""
    if len(data) < 8:
        raise DumpError(f"{name}: shorter than its header length")
    (hlen,) = struct.unpack_from("<Q", data, 0)
    if hlen > len(data) - 8:
        raise DumpError(f"{name}: header length {hlen} is past the end of the file")
    d = DumpFile()
    for number, wire, value in _fields(data[8:8 + hlen]):
        if number == 1 and wire == 2:
            d.version = value.decode("utf-8", "replace")
        elif number == 2 and wire == 0:
            d.dump_time = value
        elif number == 3 and wire == 2:
            d.outputs.append(_tensor(value, True))
        elif number == 4 and wire == 2:
            d.inputs.append(_tensor(value, False))
        elif number == 6 and wire == 2:
            d.op_name = value.decode("utf-8", "replace")
    pos = 8 + hlen
    for t in d.inputs + d.outputs:
        if t.size > len(data) - pos:
            raise DumpError(f"{name}: a tensor of {t.size} bytes runs past the end of the file")
        raw = data[pos:pos + t.size]
        pos += t.size
        dtype = DTYPES.get(t.data_type)
        count = int(np.prod(t.shape)) if t.shape else 1
        if dtype is None or count * np.dtype(dtype).itemsize != t.size:
            t.array = np.frombuffer(raw, np.uint8)  # layout unknown: raw bytes
        else:
            t.array = np.frombuffer(raw, dtype).reshape(t.shape)
    return d


def load(path):
    with open(path, "rb") as f:
        return parse(f.read(), os.path.basename(path))


def _files(target):
    if os.path.isfile(target):
        yield target
        return
    for root, _, names in os.walk(target):
        for n in sorted(names):
            if not n.endswith(".npy"):
                yield os.path.join(root, n)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m ocann_dump",
                                 description="List dump files and convert them to .npy")
    ap.add_argument("target", help="a dump file or a folder of them")
    ap.add_argument("-o", "--output", help="write every tensor as .npy into this folder")
    a = ap.parse_args(argv)
    bad = 0
    for path in _files(a.target):
        try:
            d = load(path)
        except (DumpError, OSError) as e:
            print(f"[ERROR] {e}", file=sys.stderr)
            bad += 1
            continue
        for kind, tensors in (("input", d.inputs), ("output", d.outputs)):
            for i, t in enumerate(tensors):
                origin = (f" <- {t.original_name}:{t.original_output_index}"
                          if t.original_name else "")
                print(f"{os.path.basename(path)} {kind}.{i} {t.dtype} {t.format} "
                      f"{list(t.shape)}{origin}")
                if a.output:
                    os.makedirs(a.output, exist_ok=True)
                    np.save(os.path.join(a.output, f"{os.path.basename(path)}.{kind}.{i}.npy"),
                            t.array)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
