package db

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
)

// A cluster is a throwaway Postgres server this test owns, so it can stop
// the server at will (the fault tests) without touching the shared one.
type cluster struct {
	bin  string   // the directory of initdb, pg_ctl, postgres
	dir  string   // its data lives in dir/data, its log in dir/log
	port int      // on 127.0.0.1
	as   []string // runuser prefix when the test runs as root
}

// skipUnlessRequired skips the test with why, or fails it under
// PERFGATE_REQUIRE_DB=1, where a fault test that cannot run must not pass.
func skipUnlessRequired(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("PERFGATE_REQUIRE_DB") == "1" {
		t.Fatal("PERFGATE_REQUIRE_DB=1, but " + why)
	}
	t.Skip(why)
}

// newCluster initialises and starts a cluster in a temporary directory; it
// is stopped when the test ends. Without initdb the test skips, or fails
// under PERFGATE_REQUIRE_DB=1.
func newCluster(t *testing.T) *cluster {
	t.Helper()
	bin := pgBinDir()
	if bin == "" {
		skipUnlessRequired(t, "initdb/pg_ctl not found: the fault tests need a server they can stop (Debian: apt-get install postgresql)")
	}
	// Not t.TempDir: its parent is private to root, and the server runs as
	// postgres when the test runs as root.
	dir, err := os.MkdirTemp("", "perfgate-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	c := &cluster{bin: bin, dir: dir, port: closedPort(t)}
	if os.Geteuid() == 0 { // initdb refuses to run as root
		u, err := user.Lookup("postgres")
		if err != nil {
			skipUnlessRequired(t, "running as root and there is no postgres user to run initdb as: "+err.Error())
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(c.dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		c.as = []string{"runuser", "-u", "postgres", "--"}
	}
	c.run(t, "initdb", "-D", c.data(), "-U", "postgres", "-A", "trust", "--no-sync")
	c.start(t)
	t.Cleanup(func() { c.pgctl(t, "stop", "-m", "immediate") })
	return c
}

func (c *cluster) data() string { return filepath.Join(c.dir, "data") }

// URL is the cluster's postgres database.
func (c *cluster) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable&connect_timeout=5", c.port)
}

func (c *cluster) start(t *testing.T) {
	t.Helper()
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -c port=%d -c unix_socket_directories=%s -c fsync=off -c max_connections=120", c.port, c.dir)
	c.run(t, "pg_ctl", "-D", c.data(), "-l", filepath.Join(c.dir, "log"), "-w", "-o", opts, "start")
}

// stopImmediately is a crash as far as the database knows: no checkpoint,
// open transactions are cut off, recovery replays the WAL on restart.
func (c *cluster) stopImmediately(t *testing.T) {
	c.run(t, "pg_ctl", "-D", c.data(), "-m", "immediate", "-w", "stop")
}

// pgctl runs pg_ctl without failing the test (for cleanups).
func (c *cluster) pgctl(t *testing.T, args ...string) {
	args = append([]string{"-D", c.data()}, args...)
	cmd := exec.Command(filepath.Join(c.bin, "pg_ctl"), args...)
	if len(c.as) > 0 {
		cmd = exec.Command(c.as[0], append(c.as[1:], append([]string{filepath.Join(c.bin, "pg_ctl")}, args...)...)...)
	}
	cmd.Run()
}

func (c *cluster) run(t *testing.T, prog string, args ...string) {
	t.Helper()
	argv := append(append([]string{}, c.as...), append([]string{filepath.Join(c.bin, prog)}, args...)...)
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		t.Fatalf("%s %v: %v\n%s\nserver log:\n%s", prog, args, err, out, log)
	}
}

// pgBinDir finds the directory holding initdb: PATH first, then Debian's
// /usr/lib/postgresql/N/bin (newest N).
func pgBinDir() string {
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p)
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		a, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		b, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return a < b
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dirs[i], "initdb")); err == nil {
			return dirs[i]
		}
	}
	return ""
}
