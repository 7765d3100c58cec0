"""Analyses of host code using the gpu dialect (`happens_before`: the
happens-before relation of a host function's GPU events)."""
