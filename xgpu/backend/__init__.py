"""Code generators from xgpu's IR (`xgpu.backend.opencl`: OpenCL C 1.2)."""
