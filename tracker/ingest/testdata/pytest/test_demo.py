# A tiny pytest-benchmark suite whose JSON output is ingest's
# pytest-benchmark testdata. Regenerate (Debian: apt-get install
# python3-pytest-benchmark), from this directory:
#
#   /usr/bin/python3 -m pytest -q -p no:cacheprovider test_demo.py \
#       --benchmark-json=summary.json --benchmark-min-rounds=5 --benchmark-max-time=0.05
#   /usr/bin/python3 -m pytest -q -p no:cacheprovider test_demo.py \
#       --benchmark-save=nodata --benchmark-storage=/tmp/pbs \
#       --benchmark-min-rounds=5 --benchmark-max-time=0.05
#   cp /tmp/pbs/*/0001_nodata.json saved_without_data.json
#
# pytest-benchmark 3.2.2 (Debian bookworm) always writes the per-round
# times ("data") into --benchmark-json; files saved with --benchmark-save
# keep them only with --benchmark-save-data, so saved_without_data.json is
# the summary-only case.
import pytest


def checksum(data):
    h = 14695981039346656037
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


@pytest.mark.parametrize("size", [256, 1024])
def test_checksum(benchmark, size):
    data = bytes(range(256)) * (size // 256)
    assert benchmark(checksum, data) != 0


def test_sorted(benchmark):
    xs = list(range(2000, 0, -1))
    benchmark.group = "sorting"
    benchmark.extra_info["n"] = len(xs)
    assert benchmark(sorted, xs)[0] == 1
