"""xgpu's tools in lit's RUN lines without a Python start-up each.

Most RUN lines call `xgpu-opt`, `xgpu-run`, `python3 -m xgpu.tools.X` and the
(pip, Python) `filecheck`:
about 600 processes, each paying Python's and xDSL's start-up (about half a
second here) for a few milliseconds of work. Where process start-up is not
what a test is about, that is most of the suite's time.

`install` makes lit's internal shell start those commands by forking the lit
worker, which has imported xgpu and built its dialects once, instead of
executing a new interpreter. The child is set up as a new process would be:
its own stdin/stdout/stderr (the pipes and files lit gives it), working
folder, environment and `sys.argv`, no other file descriptors, SIGINT's
default handler; it runs the tool's `main` and ends with its exit status
(SystemExit as Python reports it; an uncaught exception prints its traceback
and gives 1). Any other command is started by `subprocess` as before. What
a child cannot see is a change of the modules themselves: it runs the xgpu
the worker imported (a RUN line that sets PYTHONPATH to other sources gets
a real process only with XGPU_LIT_INPROCESS=0). A worker that has started
OpenCL or has other threads is not forked (real processes then).

Off with XGPU_LIT_INPROCESS=0 (every tool then a real process; the unit
tests that start the tools as processes do so either way, and
tests/unit/test_lit_inprocess.py compares a forked child with a process).
"""

from __future__ import annotations

import importlib
import os
import runpy
import signal
import subprocess
import sys
import threading
import types
from typing import Any

#: console scripts -> (module, function)
SCRIPTS = {
    "xgpu-opt": ("xgpu.tools.xgpu_opt", "main"),
    "xgpu-run": ("xgpu.tools.xgpu_run", "main"),
    "filecheck": ("filecheck.main", "main"),
}
#: modules run as `python3 -m MODULE` in process
MODULES = ("xgpu.tools.mlir_diff", "xgpu.tools.mlir_tests", "xgpu.tools.oclgrind_run")


def _preload() -> None:
    """What every child would import and build: the tools and the dialects
    (not OpenCL: a forked child must start its own)."""
    for module, _ in SCRIPTS.values():
        importlib.import_module(module)
    for module in MODULES:
        importlib.import_module(module)
    from xgpu.dialects import DERIVED_DIALECTS, _derived, multiverse
    from xgpu.dialects.gpu import GPU  # noqa: F401
    from xgpu.tools.xgpu_opt import make_context

    multiverse()
    for module in DERIVED_DIALECTS.values():
        _derived(module)
    ctx = make_context()
    ctx.load_registered_dialect("gpu")


def _python_names() -> set[str]:
    return {"python", "python3", os.path.basename(sys.executable)}


def _target(args: list[str], executable: str | None) -> tuple[Any, list[str]] | None:
    """What to run in process for `args` (a callable and the child's argv), or None."""
    name = os.path.basename(executable or args[0])
    if name in SCRIPTS and os.path.dirname(executable or "") == os.path.dirname(sys.executable):
        module, func = SCRIPTS[name]
        # As a console script's wrapper: `sys.exit(main())`.
        return (
            lambda: sys.exit(getattr(importlib.import_module(module), func)()),
            [args[0], *args[1:]],
        )
    same_python = os.path.dirname(executable or "") == os.path.dirname(sys.executable)
    if name in _python_names() and same_python and len(args) >= 2:
        if args[1] == "-m" and len(args) >= 3 and args[2] in MODULES:
            module = args[2]
            path = importlib.import_module(module).__file__ or module
            return (lambda: sys.exit(importlib.import_module(module).main())), [path, *args[3:]]
        if args[1].endswith(".py") and _in_repository(args[1]):
            script = args[1]

            def run_script() -> None:
                sys.path[0] = os.path.dirname(os.path.abspath(script))
                runpy.run_path(script, run_name="__main__")

            return run_script, [script, *args[2:]]
    return None


#: the repository: its own scripts (tests/unit/limits_programs.py, ...) run in
#: process; others (lit's builtin commands) as real processes
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _in_repository(script: str) -> bool:
    return os.path.abspath(script).startswith(_ROOT + os.sep)


def _forkable() -> bool:
    """A process with other threads, or one that started OpenCL (its device
    threads would not exist in the child), must not be forked."""
    return threading.active_count() == 1 and "pyopencl" not in sys.modules


def _exit_status(code: Any) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _child(run: Any, argv: list[str], fds: tuple[int, int, int], cwd: str | None, env: Any) -> None:
    status = 1
    try:
        _child_setup(fds, cwd, env)
        sys.argv = argv
        try:
            run()
            status = 0
        except SystemExit as exc:
            status = _exit_status(exc.code)
        except KeyboardInterrupt:
            status = 128 + signal.SIGINT
        except BaseException:  # as Python reports an uncaught exception
            import traceback

            traceback.print_exc()
            status = 1
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
    except BaseException as err:  # the set-up failed: say so on stderr
        os.write(2, f"lit_inprocess: {type(err).__name__}: {err}\n".encode())
    finally:
        os._exit(status)


def _child_setup(fds: tuple[int, int, int], cwd: str | None, env: Any) -> None:
    """The new process's descriptors, folder, environment, signals and streams."""
    for target, fd in enumerate(fds):
        if fd != target:
            os.dup2(fd, target)
    keep = {0, 1, 2}
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass
    if cwd:
        os.chdir(cwd)
    if env is not None:
        os.environ.clear()
        os.environ.update(env)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
    sys.stdin = open(0, encoding="utf-8", closefd=False)
    sys.stdout = open(1, "w", buffering=1 if unbuffered else -1, encoding="utf-8", closefd=False)
    sys.stderr = open(
        2, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False
    )


class ForkedProcess:
    """The part of `subprocess.Popen` lit's internal shell uses."""

    def __init__(self, run: Any, argv: list[str], *, cwd, stdin, stdout, stderr, env, errors):
        self.returncode: int | None = None
        self.stdin = self.stdout = self.stderr = None
        ours: list[int] = []  # child ends of pipes made here: closed in this process

        def pipe() -> tuple[int, int]:
            r, w = os.pipe()
            return r, w

        if stdin == subprocess.PIPE:
            r, w = pipe()
            child_in, ours = r, [*ours, r]
            self.stdin = open(w, "w", encoding="utf-8", errors=errors)
        else:
            child_in = _fd(stdin, 0)
        if stdout == subprocess.PIPE:
            r, w = pipe()
            child_out, ours = w, [*ours, w]
            self.stdout = open(r, encoding="utf-8", errors=errors)
        else:
            child_out = _fd(stdout, 1)
        if stderr == subprocess.STDOUT:
            child_err = child_out
        elif stderr == subprocess.PIPE:
            r, w = pipe()
            child_err, ours = w, [*ours, w]
            self.stderr = open(r, encoding="utf-8", errors=errors)
        else:
            child_err = _fd(stderr, 2)
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        pid = os.fork()
        if pid == 0:
            _child(run, argv, (child_in, child_out, child_err), cwd, env)
        self.pid = pid
        for fd in ours:
            os.close(fd)
        self.args = argv

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def communicate(self, input: str | None = None, timeout: float | None = None):
        results: dict[str, str] = {}

        def drain(name: str, stream: Any) -> None:
            results[name] = stream.read()
            stream.close()

        readers = [
            threading.Thread(target=drain, args=(name, stream), daemon=True)
            for name, stream in (("out", self.stdout), ("err", self.stderr))
            if stream is not None
        ]
        for t in readers:
            t.start()
        for t in readers:
            t.join()
        self.stdout = self.stderr = None
        self.wait()
        return results.get("out"), results.get("err")

    def kill(self) -> None:
        if self.returncode is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    terminate = kill


def _fd(spec: Any, default: int) -> int:
    if spec is None:
        return default
    if isinstance(spec, int):
        return spec
    return spec.fileno()


def _popen(
    args,
    *,
    executable=None,
    cwd=None,
    stdin=None,
    stdout=None,
    stderr=None,
    env=None,
    errors=None,
    **kwargs,
):
    target = _target(list(args), executable) if not isinstance(args, str) else None
    if target is not None and not _forkable():
        target = None
    if target is None:
        return subprocess.Popen(
            args,
            executable=executable,
            cwd=cwd,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            env=env,
            errors=errors,
            **kwargs,
        )
    run, argv = target
    return ForkedProcess(
        run,
        argv,
        cwd=cwd,
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        env=env,
        errors=errors or "strict",
    )


def install() -> bool:
    """Make lit's internal shell run xgpu's tools in forked children (see the
    module docstring); whether it did."""
    if os.environ.get("XGPU_LIT_INPROCESS", "1") == "0" or not hasattr(os, "fork"):
        return False
    import lit.TestRunner

    _preload()
    shim = types.ModuleType("subprocess")
    shim.__dict__.update(subprocess.__dict__)
    shim.Popen = _popen  # type: ignore[attr-defined]
    lit.TestRunner.subprocess = shim  # type: ignore[attr-defined]
    return True
