//go:build linux

package sharing

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

// fakeMPSControl writes a stand-in for nvidia-cuda-mps-control: with -f it
// makes the control pipe and runs until told to quit (or forever, with
// ignoreQuit); without arguments it is the client that passes "quit" on. It
// records its daemon's PID in dir/pid.
func fakeMPSControl(t *testing.T, ignoreQuit bool) (path, pidFile string) {
	dir := t.TempDir()
	path, pidFile = filepath.Join(dir, "nvidia-cuda-mps-control"), filepath.Join(dir, "pid")
	quit := `touch "$CUDA_MPS_PIPE_DIRECTORY/quit"`
	if ignoreQuit {
		quit = "true"
	}
	script := `#!/bin/sh
if [ "$1" = "-f" ]; then
  echo $$ > "` + pidFile + `"
  # a "server" that outlives the daemon, as a real one can
  (trap '' TERM; while :; do sleep 0.05; done) &
  echo $! > "` + pidFile + `.server"
  touch "$CUDA_MPS_PIPE_DIRECTORY/control"
  while [ ! -f "$CUDA_MPS_PIPE_DIRECTORY/quit" ]; do sleep 0.02; done
  exit 0
fi
read cmd
[ "$cmd" = quit ] && ` + quit + `
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, pidFile
}

// gone fails t unless the fake daemon in pidFile and its server have ended
// and been reaped (a zombie still answers signal 0).
func gone(t *testing.T, pidFile string) {
	t.Helper()
	for _, f := range []string{pidFile, pidFile + ".server"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("the fake MPS daemon never started: %v", err)
		}
		var pid int
		fmt.Sscan(string(b), &pid)
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("%s %d is still there (running or unreaped): kill 0 = %v", filepath.Base(f), pid, err)
		}
	}
}

// fakeWorkers are shell stand-ins for perfgate's worker process. The ok one
// answers 1 µs under MPS and 5 µs otherwise, so that tests see which workers
// got the MPS pipe.
var fakeWorkers = map[string]string{
	"ok":   `echo ready; read go; us=5; [ -n "$CUDA_MPS_PIPE_DIRECTORY" ] && us=1; echo "{\"elapsed_us\": $us, \"launches\": 1}"`,
	"fail": `echo 'no CUDA device' >&2; echo CUDA_ERROR_NO_DEVICE >&2; exit 3`,
	"hang": `echo ready; exec sleep 3600`,
}

func fakeWorker(t *testing.T, behaviour string) []string {
	path := filepath.Join(t.TempDir(), "worker")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+fakeWorkers[behaviour]+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return []string{path}
}

func TestRunStopsMPS(t *testing.T) {
	small := regexp.MustCompile(`^sharing/(small_kernels/procs=(1|2)/|partition/sm_pct=(14|100)/)`)
	tests := []struct {
		name       string
		worker     string
		ignoreQuit bool
		cancel     time.Duration
		check      func(t *testing.T, bs []model.Benchmark, err error)
	}{
		{"success", "ok", false, 0, func(t *testing.T, bs []model.Benchmark, err error) {
			if err != nil {
				t.Fatal(err)
			}
			if len(bs) != 2*3+2 {
				t.Fatalf("%d benchmarks, want 8", len(bs))
			}
			for _, b := range bs {
				if b.Error != "" || len(b.Samples) != 3 {
					t.Errorf("%s: error %q, %d samples", b.Name, b.Error, len(b.Samples))
				}
				// The MPS pipe reaches exactly the mode=mps workers (the fake answers 1 µs under MPS).
				if mps := b.Params["mode"] == MPS; mps != (b.Metrics["per_process_us"] == 1) || b.Metrics["per_process_us"] > 5 {
					t.Errorf("%s: per_process_us %v", b.Name, b.Metrics["per_process_us"])
				}
			}
			if last := bs[len(bs)-1]; last.Params["mode"] != MPS || bs[0].Params["mode"] == MPS {
				t.Errorf("MPS configurations do not run last: first %s, last %s", bs[0].Name, last.Name)
			}
		}},
		{"worker fails", "fail", false, 0, func(t *testing.T, bs []model.Benchmark, err error) {
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range bs {
				if !strings.Contains(b.Error, "CUDA_ERROR_NO_DEVICE") {
					t.Errorf("%s: error %q, want the worker's stderr", b.Name, b.Error)
				}
			}
		}},
		{"cancelled (SIGTERM)", "hang", false, 300 * time.Millisecond, func(t *testing.T, bs []model.Benchmark, err error) {
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
		}},
		{"daemon ignores quit", "ok", true, 0, func(t *testing.T, bs []model.Benchmark, err error) {
			// Killed and reaped, the daemon is no reason to lose the results.
			if err != nil || len(bs) != 8 {
				t.Errorf("err = %v, %d benchmarks; want the results", err, len(bs))
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			control, pidFile := fakeMPSControl(t, tt.ignoreQuit)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			filter := small
			if tt.cancel > 0 {
				time.AfterFunc(tt.cancel, cancel)
				filter = regexp.MustCompile(`^sharing/small_kernels/procs=2/mode=mps`)
			}
			prevQuit := mpsQuitWait
			mpsQuitWait = 5 * time.Second // generous: a loaded CI machine must not look like a hung daemon
			defer func() { mpsQuitWait = prevQuit }()
			var notes []string
			bs, err := Run(ctx, suite.Options{Fast: true, Filter: filter, Worker: fakeWorker(t, tt.worker), MPSControl: control,
				Progress: func(l string) { notes = append(notes, l) }})
			tt.check(t, bs, err)
			if killed := strings.Contains(strings.Join(notes, "\n"), "did not quit within"); killed != tt.ignoreQuit {
				t.Errorf("progress says the daemon was killed: %v, want %v (%q)", killed, tt.ignoreQuit, notes)
			}
			gone(t, pidFile)
		})
	}
}

func TestSharingStats(t *testing.T) {
	b := model.Benchmark{Metrics: map[string]float64{}}
	// Two rounds of 2 processes × 10 launches: walls 400 and 600 µs.
	stats(&b, 2, 10, []float64{400, 600}, [][]float64{{300, 400}, {500, 600}})
	want := map[string]float64{"median_us": 25, "kernels_per_s": 40000, "per_process_us": 450,
		"per_process_max_us": 600, "fairness": (300.0/400 + 500.0/600) / 2}
	for k, v := range want {
		if got := b.Metrics[k]; got < v*(1-1e-9) || got > v*(1+1e-9) {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	if fmt.Sprint(b.Samples) != "[20 30]" {
		t.Errorf("samples %v, want [20 30] (µs per kernel over both processes)", b.Samples)
	}
}

func TestFinishSharing(t *testing.T) {
	bench := func(name string, med float64) model.Benchmark {
		mode := name[strings.LastIndex(name, "=")+1:]
		return model.Benchmark{Suite: "sharing", Name: name, Params: map[string]string{"mode": mode},
			Metrics: map[string]float64{"median_us": med}}
	}
	bs := []model.Benchmark{
		bench("small_kernels/procs=4/mode=sequential", 40), bench("small_kernels/procs=4/mode=concurrent", 40),
		bench("small_kernels/procs=4/mode=mps", 10),
		bench("partition/sm_pct=100/mode=mps", 5), bench("partition/sm_pct=42/mode=mps", 12.5),
	}
	finish(bs)
	for i, want := range []struct {
		metric string
		v      float64
	}{{"speedup_vs_sequential", 1}, {"speedup_vs_sequential", 1}, {"speedup_vs_sequential", 4},
		{"fraction_of_full", 1}, {"fraction_of_full", 0.4}} {
		if got := bs[i].Metrics[want.metric]; got != want.v {
			t.Errorf("%s: %s = %v, want %v", bs[i].Name, want.metric, got, want.v)
		}
	}
}

func TestParseMIG(t *testing.T) {
	// nvidia-smi -L on an A100 split into a 3g.20gb and two 1g.5gb instances
	// (the format of NVIDIA's MIG user guide).
	out := "GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77)\n" +
		"  MIG 3g.20gb     Device  0: (UUID: MIG-c6d4f1ef-42e4-5de3-91c7-45d71c87eb3f)\n" +
		"  MIG 1g.5gb      Device  1: (UUID: MIG-cba663e8-9bed-5b25-b243-5985ef7c9beb)\n" +
		"  MIG 1g.5gb      Device  2: (UUID: MIG-1e099852-3624-56c0-8064-c5db1211e44f)\n" +
		"GPU 1: NVIDIA A100-SXM4-40GB (UUID: GPU-aaaa)\n"
	got := parseMIG(out)
	want := []migInstance{{"3g.20gb", "MIG-c6d4f1ef-42e4-5de3-91c7-45d71c87eb3f"},
		{"1g.5gb", "MIG-cba663e8-9bed-5b25-b243-5985ef7c9beb"}, {"1g.5gb", "MIG-1e099852-3624-56c0-8064-c5db1211e44f"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("parseMIG = %v, want %v", got, want)
	}
	if got := parseMIG("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-cf8d9d60-34a2-6712-0a10-bd8a43cc47f5)\n"); len(got) != 0 {
		t.Errorf("no MIG: got %v", got)
	}
	cs, uuids := migCases(got[:1])
	if len(cs) != 1 || cs[0].Name(MIG) != "partition/mig=3g.20gb/instance=0/mode=mig" || uuids[0] != want[0].UUID {
		t.Errorf("migCases: %v %v", cs, uuids)
	}
}

// TestProcPIDs: the /proc scans find this test's own process group and a
// process named like an MPS executable, and nothing of either once it is gone.
func TestProcPIDs(t *testing.T) {
	if !slices.Contains(groupMembers(syscall.Getpgrp()), os.Getpid()) {
		t.Errorf("groupMembers(%d) misses this process %d", syscall.Getpgrp(), os.Getpid())
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep on PATH")
	}
	fake := filepath.Join(t.TempDir(), "nvidia-cuda-mps-fake")
	if err := os.Symlink(sleep, fake); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(fake, "30")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(MPSRunning(), c.Process.Pid) {
		t.Errorf("MPSRunning() = %v, misses %s (PID %d)", MPSRunning(), fake, c.Process.Pid)
	}
	c.Process.Kill()
	c.Wait()
	if slices.Contains(MPSRunning(), c.Process.Pid) {
		t.Errorf("MPSRunning() still lists the reaped PID %d", c.Process.Pid)
	}
}
