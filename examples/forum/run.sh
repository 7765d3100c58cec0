#!/usr/bin/env bash
# Runs, in order, every command of the README section "Do I need a gpu.wait
# after host code?" (from the repository root, whatever the current directory).
#
#   bash examples/forum/run.sh
#
# Commands that must fail (a race or a use of freed memory: exit status 1) go
# through expect_fail, which stops the script on any other exit status.
set -euo pipefail
cd "$(dirname "$0")/../.."

step() { printf '\n$ %s\n' "$*"; }
expect_fail() {
  local rc=0
  "$@" || rc=$?
  if [ "$rc" -ne 1 ]; then
    echo "run.sh: expected exit status 1, got $rc, from: $*" >&2
    exit 1
  fi
  echo "(exit status 1, as expected)" >&2
}

# The forum program: the wait after the host loop is an alias.
step xgpu-opt examples/forum/program.mlir -p canonicalize
xgpu-opt examples/forum/program.mlir -p canonicalize
step "xgpu-opt examples/forum/program.mlir -p gpu-check-async > /dev/null"
xgpu-opt examples/forum/program.mlir -p gpu-check-async > /dev/null
# The picture: %356 is an edge labelled as an alias, @square hangs from the host loop.
step "xgpu-opt examples/forum/program.mlir -o /dev/null -p 'gpu-async-graph{func=forum}' 2>&1 | grep alias"
xgpu-opt examples/forum/program.mlir -o /dev/null -p 'gpu-async-graph{func=forum}' 2>&1 | grep alias

# It runs on OpenCL, with a trace.
step xgpu-run examples/forum/program.mlir --trace /tmp/forum-trace.json
xgpu-run examples/forum/program.mlir --trace /tmp/forum-trace.json
step "python3 -c '...'   # the slices of /tmp/forum-trace.json"
python3 -c 'import json; ev = sorted((e for e in json.load(open("/tmp/forum-trace.json"))["traceEvents"] if e["ph"] == "X"), key=lambda e: e["ts"]); [print("%-9s %-18s tid %d  start %+7.1f us  dur %6.1f us" % (e["cat"], e["name"], e["tid"], e["ts"] - ev[0]["ts"], e["dur"])) for e in ev]'

# The simulator: no race, the same result on every schedule.
step xgpu-run --backend sim --detect-races examples/forum/program.mlir
xgpu-run --backend sim --detect-races examples/forum/program.mlir
step 'for s in 1 2 3; do xgpu-run --backend sim --detect-races --schedule random --seed $s examples/forum/program.mlir | sed -n 2p; done'
for s in 1 2 3; do xgpu-run --backend sim --detect-races --schedule random --seed $s examples/forum/program.mlir | sed -n 2p; done

# A real missing dependency: @square depends on %341 instead of %356.
step "xgpu-run --backend sim --detect-races examples/forum/missing_dependency.mlir > /dev/null"
expect_fail xgpu-run --backend sim --detect-races examples/forum/missing_dependency.mlir > /dev/null
step 'for s in 0 1 2; do xgpu-run --backend sim --schedule random --seed $s examples/forum/missing_dependency.mlir | sed -n 2p; done'
for s in 0 1 2; do xgpu-run --backend sim --schedule random --seed $s examples/forum/missing_dependency.mlir | sed -n 2p; done
step "xgpu-run --backend sim --verbose --schedule random --seed 0 examples/forum/missing_dependency.mlir 2>&1 >/dev/null | tail -1"
xgpu-run --backend sim --verbose --schedule random --seed 0 examples/forum/missing_dependency.mlir 2>&1 >/dev/null | tail -1
step "xgpu-run --backend sim --schedule random --seed 33 examples/forum/missing_dependency.mlir > /dev/null"
expect_fail xgpu-run --backend sim --schedule random --seed 33 examples/forum/missing_dependency.mlir > /dev/null
step "xgpu-opt examples/forum/missing_dependency.mlir -p gpu-check-async > /dev/null"
xgpu-opt examples/forum/missing_dependency.mlir -p gpu-check-async > /dev/null
step 'for i in 1 2 3 4 5; do xgpu-run examples/forum/missing_dependency.mlir | sed -n 2p; done'
for i in 1 2 3 4 5; do xgpu-run examples/forum/missing_dependency.mlir | sed -n 2p; done

# Where the host must block: it writes memory that an async copy reads.
step "xgpu-run --backend sim --detect-races examples/forum/host_touch.mlir > /dev/null"
expect_fail xgpu-run --backend sim --detect-races examples/forum/host_touch.mlir > /dev/null
step "xgpu-run --backend sim --schedule random --seed 5 examples/forum/host_touch.mlir | sed -n 2p"
xgpu-run --backend sim --schedule random --seed 5 examples/forum/host_touch.mlir | sed -n 2p
step "sed 's,// FIX: ,,' examples/forum/host_touch.mlir | xgpu-run --backend sim --detect-races -"
sed 's,// FIX: ,,' examples/forum/host_touch.mlir | xgpu-run --backend sim --detect-races -
