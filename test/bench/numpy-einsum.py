"""The bench's `numpy` system (issue 14): numpy.einsum(eq, *operands, optimize=True), timed in this process.

numpy-runner.ts starts one per thread count, with OPENBLAS_NUM_THREADS / OMP_NUM_THREADS set before numpy loads.
Protocol: one JSON request per stdin line, one JSON reply per stdout line.
  {"op": "info"} -> numpy's version and the BLAS it runs (threadpoolctl when installed, else numpy.show_config and
                    the OpenBLAS library's own get_config / get_corename through ctypes).
  {"op": "run", "eq": "ij,jk->ik", "inputs": [[file, [shape]], ...], "out": file,
   "warmup": s, "minSeconds": s, "minRuns": n, "slowCall": s}
     -> reads raw little-endian float32 inputs, runs once (written to `out` for the caller's check), then times it as
        measure.ts does: warm-up until `warmup` seconds (the first call counts), then single calls until both
        `minSeconds` and `minRuns` (only the first call when it took `slowCall` seconds or more);
        replies {"best", "median", "runs", "firstSeconds"}.
"""
import ctypes
import json
import os
import sys
import time

import numpy as np


def blas_info():
    info = {"numpy": np.__version__, "threadsEnv": os.environ.get("OPENBLAS_NUM_THREADS")}
    try:
        from threadpoolctl import threadpool_info

        info["threadpoolctl"] = threadpool_info()
        return info
    except ImportError:
        info["threadpoolctl"] = None
    try:
        config = np.show_config(mode="dicts")
        info["blas"] = config.get("Build Dependencies", {}).get("blas")
        info["simd"] = config.get("SIMD Extensions")
    except Exception as e:  # older numpy: show_config prints only
        info["blas"] = f"show_config: {e}"
    info["openblas"] = openblas_runtime()
    return info


def openblas_runtime():
    """The loaded OpenBLAS's own account of its kernel (core name) and build, found in this process's mappings."""
    try:
        with open("/proc/self/maps") as maps:
            libs = sorted({line.split()[-1] for line in maps if "openblas" in line.lower() and ".so" in line})
    except OSError:
        return None
    for path in libs:
        lib = ctypes.CDLL(path)
        out = {"library": path}
        for key, names in (("corename", ("openblas_get_corename", "scipy_openblas_get_corename64_", "openblas_get_corename64_")),
                           ("config", ("openblas_get_config", "scipy_openblas_get_config64_", "openblas_get_config64_")),
                           ("threads", ("openblas_get_num_threads", "scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_"))):
            for name in names:
                fn = getattr(lib, name, None)
                if fn is None:
                    continue
                if key == "threads":
                    fn.restype = ctypes.c_int
                    out[key] = fn()
                else:
                    fn.restype = ctypes.c_char_p
                    out[key] = fn().decode()
                break
        return out
    return None


def run(req):
    operands = [np.fromfile(f, dtype="<f4").reshape(shape) for f, shape in req["inputs"]]
    call = lambda: np.einsum(req["eq"], *operands, optimize=True)
    start = time.perf_counter()
    out = call()
    first = time.perf_counter() - start
    np.ascontiguousarray(out, dtype="<f4").tofile(req["out"])
    if first >= req.get("slowCall", float("inf")):
        return {"best": first, "median": first, "runs": 1, "firstSeconds": first}
    warm = first
    while warm < req["warmup"]:
        start = time.perf_counter()
        call()
        warm += time.perf_counter() - start
    times = []
    while len(times) < req["minRuns"] or sum(times) < req["minSeconds"]:
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    times.sort()
    return {"best": times[0], "median": times[len(times) // 2], "runs": len(times), "firstSeconds": first}


for line in sys.stdin:
    req = json.loads(line)
    try:
        reply = blas_info() if req["op"] == "info" else run(req)
    except Exception as e:
        reply = {"error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
