"""Memref descriptors and MLIR's runner-utility print format (no device)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from xgpu.runtime.host_memref import reshape, subview
from xgpu.runtime.memref import MemRef, RuntimeFailure, Storage, from_numpy, host_alloc
from xgpu.runtime.runner_utils import RunnerUtils, format_float, format_memref


def header(m: MemRef) -> str:
    return f"Unranked Memref base@ = {hex(m.data_address())} rank = {m.rank} "


def test_format_rank_1_and_float_spelling():
    m = from_numpy(np.array([1, 2.5, 1e10, -0.125], dtype=np.float32))
    assert format_memref(m, "F32") == (
        header(m) + "offset = 0 sizes = [4] strides = [1] data = \n[1,  2.5,  1e+10,  -0.125]\n"
    )
    assert [format_float(x) for x in (1.0, 0.1, 1234567.0, 1e-5, np.inf, -np.inf)] == [
        "1",
        "0.1",
        "1.23457e+06",
        "1e-05",
        "inf",
        "-inf",
    ]
    assert format_float(float("nan")) == "nan"
    assert format_float(-float("nan")) == "-nan"


def test_format_nested_ranks_like_mlir():
    m = from_numpy(np.arange(12, dtype=np.int32).reshape(2, 2, 3))
    text = format_memref(m, "I32").split("\n", 1)[1]
    assert text == (
        "[[[0,    1,    2], \n  [3,    4,    5]], \n [[6,    7,    8], \n  [9,    10,    11]]]\n"
    )
    m = from_numpy(np.arange(6, dtype=np.int64).reshape(3, 2))
    assert format_memref(m, "I64").split("\n", 1)[1] == "[[0,   1], \n [2,   3], \n [4,   5]]\n"
    # Single elements and rank 0.
    assert format_memref(from_numpy(np.array([[7]], np.int64)), "I64").endswith("data = \n[[7]]\n")
    m = from_numpy(np.array(2.5, np.float64))
    assert format_memref(m, "F64") == (
        header(m) + "offset = 0 sizes = [] strides = [] data = \n[2.5]\n"
    )


def test_format_element_kinds():
    # index elements print as unsigned 64-bit, i8 as characters (an ostream
    # prints int8_t as a char), i16 as numbers.
    ind = format_memref(from_numpy(np.array([-1, 5], np.int64)), "Ind")
    assert ind.endswith("[18446744073709551615,  5]\n")
    chars = format_memref(from_numpy(np.array([72, 105], np.int8)), "I8")
    assert chars.endswith("[H,  i]\n")
    assert format_memref(from_numpy(np.array([-3, 4], np.int16)), "I16").endswith("[-3,  4]\n")
    with pytest.raises(RuntimeFailure, match="printMemrefF32 of a memref of int32"):
        format_memref(from_numpy(np.zeros(2, np.int32)), "F32")


def test_views():
    m = host_alloc(np.dtype(np.float32), (4, 6))
    m.host[:] = np.arange(24)
    assert m.strides == (6, 1) and m.is_contiguous()
    v = subview(m, (1, 1), (2, 3), (1, 2), None)
    assert (v.offset, v.sizes, v.strides) == (7, (2, 3), (6, 2))
    assert not v.is_contiguous()
    assert v.span() == (7, 18)
    np.testing.assert_array_equal(v.host_view(), [[7, 9, 11], [13, 15, 17]])
    row = subview(m, (3, 0), (1, 6), (1, 1), (1,))
    assert (row.offset, row.sizes, row.strides) == (18, (6,), (1,))
    flat = reshape(row, (2, 3))
    assert flat.strides == (3, 1)
    with pytest.raises(RuntimeFailure, match="out of bounds"):
        subview(m, (3, 0), (2, 6), (1, 1), None)
    with pytest.raises(RuntimeFailure, match="non-contiguous"):
        reshape(v, (6,))


def test_from_numpy_shares_memory_and_describes_strides():
    a = np.zeros((3, 4), dtype=np.float64)
    m = from_numpy(a)
    m.host[5] = 7.0
    assert a[1, 1] == 7.0
    t = from_numpy(a[:, ::2])
    assert t.sizes == (3, 2) and t.strides == (4, 2)
    t.host_view()[2, 1] = 3.0
    assert a[2, 2] == 3.0


def test_device_memory_has_no_host_view():
    m = MemRef(Storage(None, object(), 16, "device"), np.dtype(np.float32), 0, (4,), (1,))
    with pytest.raises(RuntimeFailure, match="host access to device memory"):
        m.host.item(0)
    with pytest.raises(RuntimeFailure, match="printMemrefF32 of device memory"):
        format_memref(m, "F32")


def test_runner_functions_write_to_the_stream():
    out = io.StringIO()
    f = RunnerUtils(out).functions()
    f["printOpen"]()
    f["printI64"](-3)
    f["printComma"]()
    f["printU64"](-1)
    f["printComma"]()
    f["printF32"](1 / 3)
    f["printClose"]()
    f["printNewline"]()
    f["printString"]("done\n")
    assert out.getvalue() == "( -3, 18446744073709551615, 0.333333 )\ndone\n"
