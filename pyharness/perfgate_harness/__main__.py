"""python3 -m perfgate_harness run SPEC.json OUT.json: run a python: suite's spec into results v1.

Exit status 0 when the results were written (failed benchmarks are error
entries in them), 2 for a spec, module or function that cannot be used.
python3 -m perfgate_harness draw SPEC.json OUT.json is one draw process of
run's (runspec.take_draws): it writes the measurements of spec["draws"].
python3 -m perfgate_harness probe prints what run --reference torch can
measure (torchref.probe), one JSON object, and exits 0 even without torch.
"""

import json
import os
import sys

from . import results
from .runspec import SpecError, run_draws, run_specs

USAGE = "usage: python3 -m perfgate_harness run SPEC.json OUT.json"

# CONNECTIONS is the driver's variable for how many hardware queues a CUDA
# context gets. The Go harness sets it to 1 unless the environment names
# another number (kernels/connections_cuda.go); the Python harness does the
# same, before anything initialises CUDA, so that a python: suite is timed
# under the conditions a built-in one is. The draw processes inherit it.
CONNECTIONS = "CUDA_DEVICE_MAX_CONNECTIONS"


def main(argv):
    os.environ.setdefault(CONNECTIONS, "1")
    if argv == ["probe"]:
        from .torchref import probe
        print(json.dumps(probe()))
        return 0
    if len(argv) != 3 or argv[0] not in ("run", "draw"):
        sys.stderr.write(USAGE + "\n")
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            spec = json.load(f)
        if argv[0] == "draw":
            with open(argv[2], "w", encoding="utf-8") as f:
                json.dump(run_draws(spec), f)
            return 0
        bs, env = run_specs(spec)
    except (OSError, ValueError, KeyError, SpecError) as e:
        sys.stderr.write("perfgate_harness: %s: %s\n" % (argv[1], e))
        return 2
    results.write_results(argv[2], results.new_run(env=env), bs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
