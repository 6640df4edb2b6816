package main

import (
	"context"
	"fmt"
	"net"
	neturl "net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/perfgate/perfgate/db"
	"github.com/perfgate/perfgate/db/dbtest"
	"github.com/perfgate/perfgate/tracker/spool"
)

// TestStalledDatabase cuts the path to the Postgres backend serving record
// and check in the middle of their work, as a wedged server or a dead
// network path without a reset would leave it: a proxy between the command
// and the server stops passing bytes either way while the backend waits on
// a lock. Each command must give up after --db-timeout with exit 3 and the
// run spooled, not hang (issue 10, item 9). The proxy works with any
// server, local or remote, so the test never skips once it has a database.
func TestStalledDatabase(t *testing.T) {
	url := dbtest.FreshDatabase(t)
	ctx := context.Background()
	if _, err := db.Migrate(ctx, url, nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	main := writeRuns(t, dir, histRun("m1", 1, 100))
	pr := writeRuns(t, dir, histRun("pr", 2, 100, asPR))[0]
	if _, errOut, code := invoke(t, map[string]string{"PERFGATE_DATABASE_URL": url}, "record", main[0]); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	tests := []struct {
		name, table string // the table whose lock the command waits for when its path is cut
		args        []string
	}{
		{"record", "run_benchmarks", []string{"record", writeRuns(t, dir, histRun("m2", 3, 100))[0]}},
		{"check --record", "runs", []string{"check", "--candidate", pr, "--record"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newStallProxy(t, url)
			spoolDir := filepath.Join(t.TempDir(), "spool")
			vars := map[string]string{"PERFGATE_DATABASE_URL": p.url, "PERFGATE_SPOOL": spoolDir, "PERFGATE_DB_TIMEOUT": "2s"}
			done := make(chan [2]string, 1)
			stallWhileWaiting(t, url, tt.table, p, func() {
				go func() {
					_, errOut, code := invoke(t, vars, tt.args...)
					done <- [2]string{fmt.Sprint(code), errOut}
				}()
			})
			select {
			case got := <-done:
				left, _ := spool.Files(spoolDir)
				if got[0] != "3" || len(left) != 1 || !strings.Contains(got[1], "did not answer within 2s") {
					t.Errorf("exit %s, stderr %q, spooled %v; want 3, the deadline named, the run spooled", got[0], got[1], left)
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("%s still running 60 s after its database path was cut (--db-timeout 2s)", tt.name)
			}
		})
	}
}

// stallWhileWaiting holds an exclusive lock on table, calls start, waits
// for a backend to queue on the lock, stalls every connection p carries
// then and releases the lock: the backend goes on, but nothing it answers
// reaches the command.
func stallWhileWaiting(t *testing.T, url, table string, p *stallProxy, start func()) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "lock table "+table+" in access exclusive mode"); err != nil {
		t.Fatal(err)
	}
	start()
	for deadline, pid := time.Now().Add(30*time.Second), 0; pid == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no backend queued on the %s lock within 30 s", table)
		}
		err := conn.QueryRow(ctx, `select coalesce(min(pid), 0) from pg_locks where not granted and relation = $1::regclass`, table).Scan(&pid)
		if err != nil {
			t.Fatal(err)
		}
	}
	p.stall()
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

// A stallProxy passes TCP (or Unix socket) traffic between a Postgres client
// and the server of a URL until stall is called; from then on the
// connections it carried pass nothing either way (bytes read are dropped)
// and stay open until the test ends, while new connections (pgx's cancel
// request) still pass.
type stallProxy struct {
	url string // the server's URL with the proxy as its host and port

	mu      sync.Mutex
	conns   []net.Conn
	stalled int // connections 0..stalled-1 of conns pass nothing
}

func newStallProxy(t *testing.T, serverURL string) *stallProxy {
	t.Helper()
	cfg, err := pgx.ParseConfig(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	network, addr := "tcp", net.JoinHostPort(cfg.Host, fmt.Sprint(cfg.Port))
	if strings.HasPrefix(cfg.Host, "/") {
		network, addr = "unix", filepath.Join(cfg.Host, fmt.Sprintf(".s.PGSQL.%d", cfg.Port))
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	p := &stallProxy{url: serverURL + fmt.Sprintf(" host=127.0.0.1 port=%d", port)}
	if u, err := neturl.Parse(serverURL); err == nil && u.Scheme != "" {
		q := u.Query()
		q.Del("host")
		q.Del("port")
		u.Host, u.RawQuery = fmt.Sprintf("127.0.0.1:%d", port), q.Encode()
		p.url = u.String()
	}
	t.Cleanup(func() {
		l.Close()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, c := range p.conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial(network, addr)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			i := len(p.conns)
			p.conns = append(p.conns, c, s)
			p.mu.Unlock()
			go p.pass(i, s, c)
			go p.pass(i, c, s)
		}
	}()
	return p
}

// pass copies src to dst, dropping what it reads once connection pair i
// is stalled. When src ends it closes dst, unless the pair is stalled: a
// cut path carries no close either.
func (p *stallProxy) pass(i int, dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		p.mu.Lock()
		cut := i < p.stalled
		p.mu.Unlock()
		switch {
		case err != nil:
			if !cut {
				dst.Close()
			}
			return
		case cut:
			continue
		}
		if _, err := dst.Write(buf[:n]); err != nil {
			src.Close()
			return
		}
	}
}

// stall stops every connection carried so far.
func (p *stallProxy) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stalled = len(p.conns)
}
