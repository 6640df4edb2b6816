package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/db"
	"github.com/perfgate/perfgate/db/dbtest"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
	"github.com/perfgate/perfgate/tracker/spool"
)

// TestUploadOddRuns spools runs with odd ids (a leading '.', which once
// made a hidden file upload ignored) and runs the database refuses as data
// (a name too long for its index, SQLSTATE 54000; a NUL byte in the id or
// in env, class 22). upload must send every good run, report each bad one
// by file and reason, and exit 2; a bad run is never spooled by record or
// check (items 7, 8).
func TestUploadOddRuns(t *testing.T) {
	url := dbtest.FreshDatabase(t)
	if _, err := db.Migrate(context.Background(), url, nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	spoolDir := filepath.Join(dir, "spool")
	longName := histRun("a-long-name", 1, 100)
	var name strings.Builder // incompressible, so no TOAST compression brings it under the index's limit
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		name.WriteByte("abcdefghijklmnopqrstuvwxyz0123456789"[rng.IntN(36)])
	}
	longName.Benchmarks[0].Name = name.String()
	nulID := histRun("b-nul\x00id", 2, 100)
	nulEnv := histRun("c-nul-env", 3, 100)
	nulEnv.Run.Env["note"] = "x\x00y"
	good := []*model.Results{histRun(".hidden", 4, 100), histRun("..", 5, 100), histRun("zz-good", 6, 100)}
	bad := []*model.Results{longName, nulID, nulEnv}
	if _, err := spool.Write(spoolDir, append(append([]*model.Results{}, bad...), good...)); err != nil {
		t.Fatal(err)
	}
	up := map[string]string{"PERFGATE_DATABASE_URL": url, "PERFGATE_SPOOL": spoolDir}
	out, errOut, code := invoke(t, up, "upload")
	for _, r := range good {
		if !strings.Contains(out, "uploaded run "+r.Run.ID) {
			t.Errorf("run %q not uploaded:\n%s", r.Run.ID, out)
		}
	}
	if code != cli.ExitBadInput || strings.Count(errOut, "left in the spool") != len(bad) || !strings.Contains(errOut, "the database rejected it") {
		t.Errorf("upload: exit %d, stderr %q; want 2 and the %d bad runs named", code, errOut, len(bad))
	}
	if left, _ := spool.Files(spoolDir); len(left) != len(bad) {
		t.Errorf("%d files left in the spoolDir, want the %d bad runs", len(left), len(bad))
	}
	for i, r := range bad {
		p := filepath.Join(t.TempDir(), fmt.Sprintf("bad%d.json", i))
		if err := resultsjson.WriteFile(p, r); err != nil {
			t.Fatal(err)
		}
		vars := map[string]string{"PERFGATE_DATABASE_URL": url, "PERFGATE_SPOOL": filepath.Join(dir, "spool2")}
		for _, args := range [][]string{{"record", p}, {"check", "--candidate", p, "--record"}} {
			_, errOut, code := invoke(t, vars, args...)
			if left, _ := spool.Files(vars["PERFGATE_SPOOL"]); code != cli.ExitBadInput || len(left) != 0 {
				t.Errorf("%s of %q: exit %d (%s), %d spooled; want 2 and nothing spooled", args[0], r.Run.ID[:6], code, errOut, len(left))
			}
		}
	}
}
