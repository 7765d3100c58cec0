"""gpu-async-graph: a picture of what orders what in host code.

`model` is the graph (nodes, edges, clusters), `build` makes it from host
code (`labels` words its nodes), `annotate` adds what
gpu-async-simplify would remove and the hazards gpu-check-async finds, `dot`
writes DOT text, `render` SVG and HTML, `graph_pass` is the pass.
"""
