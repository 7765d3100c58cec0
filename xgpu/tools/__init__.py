"""Command-line tools: xgpu-opt (and helpers for the test suite)."""
