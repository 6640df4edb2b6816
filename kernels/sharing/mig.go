//go:build linux

package sharing

import (
	"context"
	"os/exec"
	"regexp"
	"strconv"
	"time"

	"github.com/perfgate/perfgate/kernels/suite"
)

// MIG is the arrangement (mode=mig) of a partition benchmark run on a real
// MIG instance.
const MIG = "mig"

// A migInstance is one MIG instance as nvidia-smi -L lists it.
type migInstance struct{ Profile, UUID string }

// migLine keeps only profile names and UUIDs of the expected characters:
// they become benchmark names and an environment value.
var migLine = regexp.MustCompile(`^\s+MIG\s+([0-9A-Za-z.+]+)\s+Device\s+\d+:\s+\(UUID:\s+(MIG-[0-9A-Za-z-/]+)\)`)

// parseMIG returns the MIG instances in nvidia-smi -L's output, in order.
func parseMIG(out string) []migInstance {
	var ms []migInstance
	for _, l := range regexp.MustCompile(`\r?\n`).Split(out, -1) {
		if m := migLine.FindStringSubmatch(l); m != nil {
			ms = append(ms, migInstance{Profile: m[1], UUID: m[2]})
		}
	}
	return ms
}

// listMIG asks nvidia-smi for the MIG instances that exist (none when it
// fails or is missing). perfgate never creates or changes MIG instances.
func listMIG(ctx context.Context) []migInstance {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "nvidia-smi", "-L").Output()
	if err != nil {
		return nil
	}
	return parseMIG(string(out))
}

// migCases are the partition benchmarks of the MIG instances that exist:
// the GPU-filling workload alone on each, without MPS.
func migCases(ms []migInstance) (cs []suite.Case, uuids []string) {
	for i, m := range ms {
		cs = append(cs, suite.Case{Suite: "sharing", Op: "partition",
			Params: []suite.Param{{K: "mig", V: m.Profile}, {K: "instance", V: strconv.Itoa(i)}}})
		uuids = append(uuids, m.UUID)
	}
	return cs, uuids
}
