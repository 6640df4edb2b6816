package fakegithub

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v62/github"
)

// TestReleases drives the releases endpoints with go-github, as a GHES
// client (the API under /api/v3, uploads under /api/uploads): a draft,
// its assets, publishing, a download through the web URL, replacing an
// asset.
func TestReleases(t *testing.T) {
	s := New(t, "tok")
	c, err := github.NewClient(nil).WithAuthToken("tok").WithEnterpriseURLs(s.URL, s.ServerURL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, _, err := c.Repositories.GetReleaseByTag(ctx, "o", "r", "v1.0.0"); !is404(err) {
		t.Fatalf("GetReleaseByTag before any release: %v, want 404", err)
	}
	rel, _, err := c.Repositories.CreateRelease(ctx, "o", "r", &github.RepositoryRelease{
		TagName: github.String("v1.0.0"), Name: github.String("v1.0.0"), Draft: github.Bool(true), GenerateReleaseNotes: github.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rel.GetUploadURL(), s.ServerURL+UploadsPath+"/repos/o/r/releases/") || rel.GetBody() == "" {
		t.Errorf("upload_url %q, body %q", rel.GetUploadURL(), rel.GetBody())
	}
	file := filepath.Join(t.TempDir(), "perfgate")
	if err := os.WriteFile(file, []byte("binary 1"), 0o644); err != nil {
		t.Fatal(err)
	}
	upload := func() (*github.ReleaseAsset, error) {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		a, _, err := c.Repositories.UploadReleaseAsset(ctx, "o", "r", rel.GetID(), &github.UploadOptions{Name: "perfgate"}, f)
		return a, err
	}
	a, err := upload()
	if err != nil || a.GetSize() != 8 || a.GetName() != "perfgate" {
		t.Fatalf("upload: %+v, %v", a, err)
	}
	if _, err := upload(); err == nil || !strings.Contains(err.Error(), "422") {
		t.Errorf("second upload of the same name: %v, want 422", err)
	}
	download := func(tag string) (int, string) {
		resp, err := http.Get(s.ServerURL + "/o/r/releases/download/" + tag + "/perfgate")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := download("v1.0.0"); code != http.StatusNotFound {
		t.Errorf("download of a draft's asset: %d, want 404", code)
	}
	if _, _, err := c.Repositories.EditRelease(ctx, "o", "r", rel.GetID(), &github.RepositoryRelease{Draft: github.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	if code, body := download("v1.0.0"); code != http.StatusOK || body != "binary 1" {
		t.Errorf("download: %d %q", code, body)
	}
	got, _, err := c.Repositories.GetReleaseByTag(ctx, "o", "r", "v1.0.0")
	if err != nil || got.GetDraft() || got.PublishedAt == nil || len(got.Assets) != 1 {
		t.Fatalf("GetReleaseByTag: %+v, %v", got, err)
	}
	if _, err := c.Repositories.DeleteReleaseAsset(ctx, "o", "r", a.GetID()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("binary 2"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := upload(); err != nil {
		t.Fatal(err)
	}
	if code, body := download("v1.0.0"); code != http.StatusOK || body != "binary 2" {
		t.Errorf("download after replacing: %d %q", code, body)
	}
	if err := s.CorruptAsset("o", "r", "v1.0.0", "perfgate", []byte("evil")); err != nil {
		t.Fatal(err)
	}
	rs := s.Releases("o", "r")
	if len(rs) != 1 || string(rs[0].Files["perfgate"]) != "evil" || len(rs[0].Assets) != 1 || rs[0].Assets[0].GetSize() != 8 {
		t.Errorf("Releases after CorruptAsset: %+v", rs)
	}
	if _, _, err := c.Repositories.CreateRelease(ctx, "o", "r", &github.RepositoryRelease{TagName: github.String("v1.0.0")}); err == nil {
		t.Error("a second published release of v1.0.0 was created")
	}
}

// TestUploadToTheAPIRoot checks that an upload sent to the API root, not
// the uploads server the description names, is a violation.
func TestUploadToTheAPIRoot(t *testing.T) {
	rec := &errorsTB{TB: t}
	s := New(rec, "tok")
	do(t, s, "POST", "/repos/o/r/releases/1/assets?name=x", "data")
	s.Verify(rec)
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "no operation") {
		t.Errorf("Verify reported %q, want the upload to the API root", rec.errs)
	}
	rec.errs = nil
}

func is404(err error) bool {
	var e *github.ErrorResponse
	return errors.As(err, &e) && e.Response.StatusCode == http.StatusNotFound
}
