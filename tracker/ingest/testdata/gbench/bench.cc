// A tiny Google Benchmark program whose JSON output is ingest's gbench
// testdata. Regenerate (Debian: apt-get install libbenchmark-dev):
//
//	g++ -O2 -std=c++17 bench.cc -lbenchmark -lpthread -o /tmp/gbench_demo
//	/tmp/gbench_demo --benchmark_format=json --benchmark_repetitions=5 \
//	    --benchmark_min_time=0.01 > repetitions.json
//	/tmp/gbench_demo --benchmark_format=json --benchmark_min_time=0.01 \
//	    --benchmark_filter='BM_Sum/1024' > single.json
//	/tmp/gbench_demo --benchmark_format=json --benchmark_repetitions=3 --benchmark_min_time=0.01 \
//	    --benchmark_report_aggregates_only=true --benchmark_filter=BM_Copy > aggregates_only.json
#include <benchmark/benchmark.h>

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

static void BM_Sum(benchmark::State& state) {
  std::vector<uint32_t> v(state.range(0));
  std::iota(v.begin(), v.end(), 0u);
  for (auto _ : state) {
    benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), uint64_t{0}));
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * state.range(0) * sizeof(uint32_t));
  state.counters["elems"] = benchmark::Counter(double(state.range(0)));
}
BENCHMARK(BM_Sum)->Arg(1024)->Arg(65536);

static void BM_Copy(benchmark::State& state) {
  std::vector<char> src(state.range(0), 'x'), dst(state.range(0));
  for (auto _ : state) {
    std::copy(src.begin(), src.end(), dst.begin());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Copy)->ArgName("bytes")->Arg(4096)->Unit(benchmark::kMicrosecond);

static void BM_Fails(benchmark::State& state) {
  for (auto _ : state) {
    state.SkipWithError("device not available");
    break;
  }
}
BENCHMARK(BM_Fails);

BENCHMARK_MAIN();
