"""The generated OpenCL C compiles for GPUs, not only for PoCL.

Every gpu.module of the program zoo (tests/runtime/), of the runtime lit tests
(tests/filecheck/runtime/), of the OpenCL backend tests
(tests/filecheck/backend/) and of examples/ is emitted as xgpu-run emits it
(emulated subgroups, one per workgroup and of 4 lanes; cl_khr_subgroups
builtins) and compiled by clang 14 with the program's own build options for

- `nvptx64-nvidia-nvcl` (PTX, what NVIDIA's OpenCL driver compiles), and
- `spir64` (SPIR, LLVM IR for the OpenCL drivers of Intel and others),

with the default header of OpenCL builtins. Any error or warning fails: a
construct only PoCL accepts would slip through otherwise. Programs that use
cl_khr_subgroups or 64-bit atomics (cl_khr_int64_base_atomics, which clang
14's nvptx64 target lacks) are compiled for spir64 only, as for a device that
has the extensions `emit_options` requires (NVIDIA's OpenCL has no cl_khr_subgroups,
so xgpu-run emulates subgroups there); clang 14 does not know
cl_khr_subgroup_shuffle, _shuffle_relative and _ballot, so their macros are
defined as such a device defines them.

Skipped, with the reason, where clang-14 is not installed; CI (`.ci/run`)
installs it and sets `XGPU_REQUIRE_CLANG=1`, under which a missing clang fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from xgpu.backend.opencl import EmitError, compile_gpu_module
from xgpu.backend.opencl.device import KHR_SUBGROUP_EXTENSIONS, emit_options
from xgpu.runtime.api import RunError, load

ROOT = Path(__file__).resolve().parents[2]
INPUTS = sorted(
    {
        *(ROOT / "tests" / "runtime").rglob("*.mlir"),
        *(ROOT / "tests" / "filecheck" / "runtime").rglob("*.mlir"),
        *(ROOT / "tests" / "filecheck" / "backend").rglob("*.mlir"),
        *(ROOT / "examples").rglob("*.mlir"),
    }
)

CLANG = shutil.which(os.environ.get("XGPU_CLANG", "clang-14"))
REQUIRE = os.environ.get("XGPU_REQUIRE_CLANG") == "1"
needs_clang = pytest.mark.skipif(
    CLANG is None and not REQUIRE,
    reason="clang-14 not installed (Debian: apt-get install clang-14); "
    "XGPU_REQUIRE_CLANG=1 makes this a failure",
)

TARGETS = {
    "nvptx64": ["-target", "nvptx64-nvidia-nvcl", "-S"],
    "spir64": ["-target", "spir64", "-emit-llvm", "-S"],
}
#: extensions clang 14's nvptx64 target does not know (NVIDIA's driver has
#: cl_khr_int64_base_atomics; its OpenCL has no cl_khr_subgroups, so xgpu-run
#: emulates subgroups there): programs that need them compile for spir64 only
SPIR_ONLY = frozenset({"cl_khr_subgroups", "cl_khr_int64_base_atomics"})
KHR_FLAGS = ["-Xclang", "-cl-ext=+cl_khr_subgroups"] + [
    f"-D{ext}=1" for ext in sorted(KHR_SUBGROUP_EXTENSIONS - {"cl_khr_subgroups"})
]
VARIANTS = ({}, {"subgroup_size": 4}, {"subgroups": "khr"})


def programs(path: Path) -> list[tuple[str, object]]:
    """(name, OpenCLProgram) of every distinct emitted program of `path`'s
    valid chunks."""
    found: dict[str, tuple[str, object]] = {}
    for k, chunk in enumerate(path.read_text().split("// -----")):
        try:
            module, _ = load(chunk, str(path))
        except RunError:
            continue  # a chunk that exists for its error
        for op in module.walk():
            if op.name != "gpu.module":
                continue
            for variant in VARIANTS:
                for fp16 in (False, True):
                    try:
                        prog = compile_gpu_module(op, fp16=fp16, **variant)
                    except EmitError:
                        continue
                    label = f"chunk {k} @{op.sym_name.data} {variant or 'default'}"
                    found.setdefault(prog.source, (label, prog))
                    break
    return list(found.values())


def clang(source: Path, target: str, prog) -> list[str]:
    """Compile `source` with the program's build options for `target`; the
    failures (clang's output when it has any)."""
    assert CLANG is not None, "XGPU_REQUIRE_CLANG=1 but clang-14 is not installed"
    args = [CLANG, "-x", "cl", *prog.build_options.split(), *TARGETS[target]]
    args += ["-Xclang", "-finclude-default-header", "-o", os.devnull, str(source)]
    if "cl_khr_subgroups" in prog.extensions:
        args += KHR_FLAGS
    text = source.read_text()
    if "vload_half" in text or "vstore_half" in text:
        # f16 memory without cl_khr_fp16 (`xgpu.backend.opencl.half`): clang
        # 14's built-in declarations leave out vload_half/vstore_half (core
        # OpenCL C 1.0 functions) when the target lacks cl_khr_fp16; its full
        # header declares them (and `half` variables stay errors).
        args += ["-include", "opencl-c.h"]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0 or proc.stderr.strip():
        return [f"{target} (exit {proc.returncode}):\n{proc.stderr}"]
    return []


@needs_clang
@pytest.mark.parametrize("path", INPUTS, ids=[str(p.relative_to(ROOT)) for p in INPUTS])
def test_generated_opencl_c_compiles_for_nvptx64_and_spir64(path: Path, tmp_path: Path):
    progs = programs(path)
    runs_on_opencl = path.is_relative_to(ROOT / "tests" / "runtime") or path.is_relative_to(
        ROOT / "examples"
    )
    if runs_on_opencl and "gpu.module" in path.read_text():
        assert progs, f"{path.name}: no gpu.module could be emitted"
    failures = []
    for i, (label, prog) in enumerate(progs):
        source = tmp_path / f"p{i}.cl"
        source.write_text(prog.source)
        spir_only = not prog.extensions.isdisjoint(SPIR_ONLY)
        targets = ["spir64"] if spir_only else list(TARGETS)
        for target in targets:
            for failure in clang(source, target, prog):
                failures.append(f"{label}: {failure}\n{prog.source}")
    assert not failures, "\n\n".join(failures)


@needs_clang
def test_the_check_fails_on_code_only_pocl_accepts(tmp_path: Path):
    """A PoCL-accepted construct that GPU compilers reject (an implicit
    declaration; a pragma for an extension the target lacks) is reported."""
    prog = SimpleNamespace(build_options="-cl-std=CL1.2", extensions=frozenset())
    bad = tmp_path / "bad.cl"
    bad.write_text("__kernel void k(__global int *p) { p[0] = undeclared_builtin(1); }\n")
    assert clang(bad, "nvptx64", prog) and clang(bad, "spir64", prog)
    pragma = tmp_path / "pragma.cl"
    pragma.write_text(
        "#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable\n"
        "__kernel void k(__global int *p) { p[0] = 1; }\n"
    )
    assert clang(pragma, "nvptx64", prog)


def _device(extensions: set[str], version: str):
    import pyopencl as cl

    return SimpleNamespace(
        extensions=" ".join(sorted(extensions)),
        opencl_c_version=version,
        type=cl.device_type.GPU,
    )


def test_khr_subgroups_only_where_the_device_compiles_them():
    full = set(KHR_SUBGROUP_EXTENSIONS) | {"cl_khr_fp16"}
    assert emit_options(_device(full, "OpenCL C 2.0 "))["subgroups"] == "khr"
    assert emit_options(_device(full, "OpenCL C 3.0 "))["subgroups"] == "khr"
    # OpenCL C 1.2 has no subgroup builtins; without the shuffles the
    # emitter would call functions the device lacks.
    assert emit_options(_device(full, "OpenCL C 1.2 "))["subgroups"] == "emulate"
    assert emit_options(_device({"cl_khr_subgroups"}, "OpenCL C 2.0 "))["subgroups"] == "emulate"
    assert emit_options(_device(full, "OpenCL C 2.0 "))["fp16"] is True
