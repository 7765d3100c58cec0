PYTHON ?= python3
LIT ?= $(PYTHON) -c "import lit.main; lit.main.main()"

.PHONY: install test unit lit lint bench bench-quick bench-suite graphs

# The tests write nothing into the source tree: bytecode caches go here (lit
# puts its outputs under the temporary folder, see tests/filecheck/lit.cfg).
# Written there even where the environment says PYTHONDONTWRITEBYTECODE: with
# a prefix Python reads no other cache, and without any every process would
# compile xDSL and xgpu again (about a second each).
export PYTHONPYCACHEPREFIX ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/xgpu/pycache
unexport PYTHONDONTWRITEBYTECODE

install:
	$(PYTHON) -m pip install -e '.[dev]'

# pytest exits 5 when it collects no test: that is not a failure of the suite.
# -rs prints the reason of every skip (a missing mlir-opt, oclgrind or clang-14).
# -n auto: one pytest worker per core (pytest-xdist).
unit:
	$(PYTHON) -m pytest -q -rs -p no:cacheprovider -n auto tests/unit; rc=$$?; \
	  if [ $$rc -ne 0 ] && [ $$rc -ne 5 ]; then exit $$rc; fi

lit:
	$(LIT) -sv tests/filecheck

# The whole suite; its time is recorded for bench/suite.py (outside the tree).
test:
	@start=$$(date +%s.%N); status=0; \
	  $(MAKE) --no-print-directory unit lit || status=$$?; \
	  $(PYTHON) bench/suite.py --record $$start $$status; exit $$status

# The README's picture of the forum program (tests/unit/test_async_graph.py
# checks that it is current).
graphs:
	xgpu-opt examples/forum/program.mlir -o /dev/null \
	  -p 'gpu-async-graph{func=forum out="docs/images/forum-async-graph.dot"}'
	xgpu-opt examples/forum/program.mlir -o /dev/null \
	  -p 'gpu-async-graph{func=forum format=svg out="docs/images/forum-async-graph.svg"}'

lint:
	$(PYTHON) -m ruff check xgpu tests bench examples
	$(PYTHON) -m ruff format --check xgpu tests bench examples

# Every figure against a baseline measured in the same run (bench/common.py).
# Medians of 5 runs for parse and canonicalize (mlir-opt's ~0.15 s moves by a
# third between runs) and of 3 on the simulator (matmul_tiled_256 once, each
# side bounded by --timeout).
bench:
	$(PYTHON) bench/startup.py
	$(PYTHON) bench/parse.py --runs 5
	$(PYTHON) bench/compile.py --runs 5
	$(PYTHON) bench/launch.py
	$(PYTHON) bench/kernels.py
	$(PYTHON) bench/sim.py --timeout 150
	$(PYTHON) bench/suite.py

bench-quick:
	$(PYTHON) bench/startup.py --quick
	$(PYTHON) bench/parse.py --quick
	$(PYTHON) bench/compile.py --quick
	$(PYTHON) bench/launch.py --quick
	$(PYTHON) bench/kernels.py --quick
	$(PYTHON) bench/sim.py --quick --only matmul_tiled_128,reduce --timeout 120

# Runs the whole test suite (minutes); `make test` records its time.
bench-suite:
	$(PYTHON) bench/suite.py --run
