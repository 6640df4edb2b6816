package site

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// fakeTrend serves series and keeps the query it was asked.
type fakeTrend struct {
	series []model.TrendSeries
	err    error
	got    model.TrendQuery
}

func (f *fakeTrend) Trend(_ context.Context, q model.TrendQuery) ([]model.TrendSeries, error) {
	f.got = q
	return f.series, f.err
}

// TestPublish: the query reaches the source, the files Build makes are
// written and counted; a source's error writes nothing.
func TestPublish(t *testing.T) {
	src := &fakeTrend{series: synthetic(2, 3, 20)}
	want, err := Build(src.series, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	q := model.TrendQuery{Repo: "o/r", Branch: "main"}
	p, err := Publish(context.Background(), src, q, DefaultOptions(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if src.got != q {
		t.Errorf("query = %+v, want %+v", src.got, q)
	}
	if p.Files != len(want) || p.Series != len(src.series) {
		t.Errorf("Published = %+v, want %d files, %d series", p, len(want), len(src.series))
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		t.Errorf("index.html: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad")
	if _, err := Publish(context.Background(), &fakeTrend{err: errors.New("db down")}, q, DefaultOptions(), bad); err == nil {
		t.Error("a failing source: no error")
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("a failing source wrote %s (%v)", bad, err)
	}
}

func TestRepoURL(t *testing.T) {
	for _, tc := range []struct{ server, repo, want string }{
		{"", "o/r", "https://github.com/o/r"},
		{"https://ghe.example/", "o/r", "https://ghe.example/o/r"},
		{"https://github.com", "", ""},
	} {
		if got := RepoURL(tc.server, tc.repo); got != tc.want {
			t.Errorf("RepoURL(%q, %q) = %q, want %q", tc.server, tc.repo, got, tc.want)
		}
	}
}
