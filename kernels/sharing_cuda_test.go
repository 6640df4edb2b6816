//go:build cuda

package kernels

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/childspec"
	"github.com/perfgate/perfgate/kernels/sharing"
)

// TestMain lets the test binary be a sharing worker (SharingWorker on the
// GPU) when PERFGATE_TEST_SHARING_WORKER=1, as perfgate's worker command is.
func TestMain(m *testing.M) {
	if os.Getenv("PERFGATE_TEST_SHARING_WORKER") != "1" {
		os.Exit(m.Run())
	}
	// Its one argument is the workload's spec (sharing.Work.Spec), which
	// perfgate's worker command reads after --spec.
	var w SharingWork
	if len(os.Args) != 2 {
		os.Stderr.WriteString("sharing worker: want the workload's spec as the one argument\n")
		os.Exit(2)
	}
	if err := childspec.Decode([]byte(os.Args[1]), sharing.SpecVersion, &w); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(2)
	}
	if err := SharingWorker(context.Background(), w, os.Getenv("PERFGATE_CACHE"), os.Stdin, os.Stdout); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(3)
	}
	os.Exit(0)
}

// TestSharingGPU runs two processes sequential/concurrent/MPS and two SM
// limits under a real private MPS daemon, and checks that the limit limits
// and that no MPS process is left afterwards.
func TestSharingGPU(t *testing.T) {
	s := openSession(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if len(sharing.MPSRunning()) > 0 {
		t.Fatalf("an MPS daemon is already running (PIDs %v): this test would measure it", sharing.MPSRunning())
	}
	t.Setenv("PERFGATE_TEST_SHARING_WORKER", "1")
	t.Setenv("PERFGATE_CACHE", t.TempDir())
	o := Options{Fast: true, Worker: []string{exe}, Progress: func(l string) { t.Log(l) },
		Filter: regexp.MustCompile(`^sharing/(small_kernels/procs=2/|partition/sm_pct=(28|100)/)`)}
	bs, err := s.RunSuite(context.Background(), "sharing", o)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 5 {
		t.Fatalf("%d benchmarks, want 5", len(bs))
	}
	for _, b := range bs {
		if b.Error != "" || len(b.Samples) != sharing.Rounds(true) || b.Metrics["kernels_per_s"] <= 0 {
			t.Errorf("%s: error %q, %d samples, metrics %v", b.Name, b.Error, len(b.Samples), b.Metrics)
		}
		if b.Name == "partition/sm_pct=28/mode=mps" {
			if f := b.Metrics["fraction_of_full"]; !(f > 0.1 && f < 0.6) {
				t.Errorf("at 28%% of the SMs the GPU-filling workload ran at %.2f of its full throughput", f)
			}
		}
	}
	time.Sleep(200 * time.Millisecond)
	if pids := sharing.MPSRunning(); len(pids) > 0 {
		t.Errorf("MPS processes left after the suite: %v", pids)
	}
}

// TestCmdpathGPU runs the GPU benchmarks of cmdpath briefly.
func TestCmdpathGPU(t *testing.T) {
	s := openSession(t)
	o := Options{Fast: true, MaxTime: 200 * time.Millisecond, CacheDir: t.TempDir(), Progress: func(l string) { t.Log(l) },
		Filter: regexp.MustCompile(`/mode=gpu$|^cmdpath/send/queue=chan/cap=100/cmd=small/`)}
	bs, err := s.RunSuite(context.Background(), "cmdpath", o)
	if err != nil {
		t.Fatal(err)
	}
	_, gpu := CountHostAndGPU([]string{"cmdpath"}, Options{})
	if len(bs) != gpu+1 {
		t.Fatalf("%d benchmarks, want %d GPU ones and one host one", len(bs), gpu)
	}
	for _, b := range bs {
		if b.Error != "" || len(b.Samples) == 0 || b.Metrics["median_us"] <= 0 {
			t.Errorf("%s: error %q, %d samples, metrics %v", b.Name, b.Error, len(b.Samples), b.Metrics)
			continue
		}
		switch {
		case strings.HasPrefix(b.Name, "htod/") && !(b.Metrics["gbps"] > 0.5):
			t.Errorf("%s: %v GB/s", b.Name, b.Metrics["gbps"])
		case strings.HasPrefix(b.Name, "submit/") && !(b.Metrics["commands_per_s"] > 0):
			t.Errorf("%s: no commands_per_s: %v", b.Name, b.Metrics)
		case strings.Contains(b.Name, "impl=cuMemAllocAsync") && !(b.Metrics["sync_over_async"] > 0):
			t.Errorf("%s: no sync_over_async: %v", b.Name, b.Metrics)
		}
	}
}
