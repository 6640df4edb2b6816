package fakegithub

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/google/go-github/v62/github"
)

// UploadsPath is where the fake takes release asset uploads, as GHES does
// (github.com uses https://uploads.github.com). A release's upload_url
// points there.
const UploadsPath = "/api/uploads"

// A Release is a release as the fake stores it: what the API answers for it
// and its assets' bytes by name.
type Release struct {
	github.RepositoryRelease
	Files map[string][]byte
}

// A release is one release of a repository; assets keep upload order.
type release struct {
	owner, repo string
	meta        github.RepositoryRelease
	assets      []*asset
}

type asset struct {
	meta github.ReleaseAsset
	data []byte
}

// Releases returns a repository's releases, drafts included, oldest first.
func (s *Server) Releases(owner, repo string) []Release {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Release
	for _, r := range s.releases {
		if r.owner != owner || r.repo != repo {
			continue
		}
		rel := Release{RepositoryRelease: r.meta, Files: map[string][]byte{}}
		rel.Assets = nil
		for _, a := range r.assets {
			m := a.meta
			rel.Assets = append(rel.Assets, &m)
			rel.Files[a.meta.GetName()] = append([]byte(nil), a.data...)
		}
		out = append(out, rel)
	}
	return out
}

// CorruptAsset replaces the bytes of the asset name of the published release
// tag, keeping its metadata, as a tampered or damaged download would look.
func (s *Server) CorruptAsset(owner, repo, tag, name string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.releaseByTag(owner, repo, tag); r != nil {
		for _, a := range r.assets {
			if a.meta.GetName() == name {
				a.data = data
				return nil
			}
		}
	}
	return fmt.Errorf("fakegithub: no asset %s in release %s of %s/%s", name, tag, owner, repo)
}

// releaseByTag returns the published release of tag; the caller holds s.mu.
func (s *Server) releaseByTag(owner, repo, tag string) *release {
	for _, r := range s.releases {
		if r.owner == owner && r.repo == repo && r.meta.GetTagName() == tag && !r.meta.GetDraft() {
			return r
		}
	}
	return nil
}

// releaseByID returns a release of owner/repo; the caller holds s.mu.
func (s *Server) releaseByID(owner, repo, id string) *release {
	for _, r := range s.releases {
		if r.owner == owner && r.repo == repo && strconv.FormatInt(r.meta.GetID(), 10) == id {
			return r
		}
	}
	return nil
}

// json is a release as the API answers it: go-github's fields, plus
// what go-github cannot express (published_at null for a draft, the assets'
// digest). The caller holds s.mu.
func (r *release) json() map[string]any {
	m := toMap(r.meta)
	if r.meta.PublishedAt == nil {
		m["published_at"] = nil
	}
	assets := []any{}
	for _, a := range r.assets {
		assets = append(assets, a.json())
	}
	m["assets"] = assets
	if r.meta.Body == nil {
		m["body"] = nil
	}
	return m
}

func (a *asset) json() map[string]any {
	m := toMap(a.meta)
	m["digest"] = fmt.Sprintf("sha256:%x", sha256.Sum256(a.data))
	return m
}

func toMap(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	return m
}

func notFound(w http.ResponseWriter, doc string) {
	writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found", "documentation_url": "https://docs.github.com/rest/releases/" + doc})
}

func (s *Server) getReleaseByTag(w http.ResponseWriter, p map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.releaseByTag(p["owner"], p["repo"], p["tag"])
	if r == nil {
		notFound(w, "releases#get-a-release-by-tag-name")
		return
	}
	writeJSON(w, http.StatusOK, r.json())
}

// createRelease creates a release; GitHub refuses a second published
// release of a tag (drafts may share one).
func (s *Server) createRelease(w http.ResponseWriter, r *http.Request, p map[string]string, body []byte) {
	var in github.RepositoryRelease
	if err := json.Unmarshal(body, &in); err != nil || in.GetTagName() == "" {
		unprocessable(w, "tag_name")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !in.GetDraft() && s.releaseByTag(p["owner"], p["repo"], in.GetTagName()) != nil {
		unprocessable(w, "tag_name already_exists")
		return
	}
	s.nextID++
	id, root := s.nextID, "http://"+r.Host
	api := fmt.Sprintf("%s%s/repos/%s/%s", root, BasePath, p["owner"], p["repo"])
	meta := github.RepositoryRelease{
		ID: github.Int64(id), NodeID: github.String(fmt.Sprintf("RE_fake%d", id)),
		TagName: in.TagName, TargetCommitish: github.String(in.GetTargetCommitish()),
		Name: in.Name, Body: in.Body, Draft: github.Bool(in.GetDraft()), Prerelease: github.Bool(in.GetPrerelease()),
		CreatedAt:  &github.Timestamp{Time: fixedTime},
		URL:        github.String(fmt.Sprintf("%s/releases/%d", api, id)),
		AssetsURL:  github.String(fmt.Sprintf("%s/releases/%d/assets", api, id)),
		UploadURL:  github.String(fmt.Sprintf("%s%s/repos/%s/%s/releases/%d/assets{?name,label}", root, UploadsPath, p["owner"], p["repo"], id)),
		HTMLURL:    github.String(fmt.Sprintf("%s/%s/%s/releases/tag/%s", root, p["owner"], p["repo"], in.GetTagName())),
		TarballURL: github.String(api + "/tarball/" + in.GetTagName()),
		ZipballURL: github.String(api + "/zipball/" + in.GetTagName()),
		Author:     &github.User{Login: github.String(s.identity.Login), ID: github.Int64(s.identity.ID), Type: github.String(s.identity.Type)},
	}
	if meta.GetTargetCommitish() == "" {
		meta.TargetCommitish = github.String("main")
	}
	if in.GetGenerateReleaseNotes() && in.GetBody() == "" {
		meta.Body = github.String(fmt.Sprintf("**Full Changelog**: %s/%s/%s/commits/%s", root, p["owner"], p["repo"], in.GetTagName()))
	}
	if !in.GetDraft() {
		meta.PublishedAt = &github.Timestamp{Time: fixedTime}
	}
	rel := &release{owner: p["owner"], repo: p["repo"], meta: meta}
	s.releases = append(s.releases, rel)
	writeJSON(w, http.StatusCreated, rel.json())
}

// updateRelease applies the fields the request names; publishing a draft
// sets published_at.
func (s *Server) updateRelease(w http.ResponseWriter, p map[string]string, body []byte) {
	var in github.RepositoryRelease
	if err := json.Unmarshal(body, &in); err != nil {
		unprocessable(w, "body")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rel := s.releaseByID(p["owner"], p["repo"], p["release_id"])
	if rel == nil {
		notFound(w, "releases#update-a-release")
		return
	}
	m := &rel.meta
	if in.TagName != nil {
		m.TagName = in.TagName
	}
	if in.Name != nil {
		m.Name = in.Name
	}
	if in.Body != nil {
		m.Body = in.Body
	}
	if in.Prerelease != nil {
		m.Prerelease = in.Prerelease
	}
	if in.Draft != nil {
		if !in.GetDraft() && s.releaseByTag(p["owner"], p["repo"], m.GetTagName()) != nil && m.GetDraft() {
			unprocessable(w, "tag_name already_exists")
			return
		}
		if m.GetDraft() && !in.GetDraft() {
			m.PublishedAt = &github.Timestamp{Time: fixedTime}
		}
		m.Draft = in.Draft
	}
	writeJSON(w, http.StatusOK, rel.json())
}

// uploadAsset stores the request body as an asset; GitHub answers 422 for
// a name the release already has.
func (s *Server) uploadAsset(w http.ResponseWriter, r *http.Request, p map[string]string, body []byte) {
	name := r.URL.Query().Get("name")
	if name == "" {
		unprocessable(w, "name")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rel := s.releaseByID(p["owner"], p["repo"], p["release_id"])
	if rel == nil {
		notFound(w, "assets#upload-a-release-asset")
		return
	}
	for _, a := range rel.assets {
		if a.meta.GetName() == name {
			unprocessable(w, "name already_exists")
			return
		}
	}
	s.nextID++
	root := strings.TrimSuffix(rel.meta.GetHTMLURL(), "/"+rel.owner+"/"+rel.repo+"/releases/tag/"+rel.meta.GetTagName())
	a := &asset{data: body, meta: github.ReleaseAsset{
		ID: github.Int64(s.nextID), NodeID: github.String(fmt.Sprintf("RA_fake%d", s.nextID)),
		URL:  github.String(fmt.Sprintf("%s%s/repos/%s/%s/releases/assets/%d", root, BasePath, rel.owner, rel.repo, s.nextID)),
		Name: github.String(name), Label: github.String(r.URL.Query().Get("label")), State: github.String("uploaded"),
		ContentType: github.String(r.Header.Get("Content-Type")), Size: github.Int(len(body)), DownloadCount: github.Int(0),
		CreatedAt: &github.Timestamp{Time: fixedTime}, UpdatedAt: &github.Timestamp{Time: fixedTime},
		BrowserDownloadURL: github.String(fmt.Sprintf("%s/%s/%s/releases/download/%s/%s", root, rel.owner, rel.repo, rel.meta.GetTagName(), name)),
		Uploader:           rel.meta.Author,
	}}
	rel.assets = append(rel.assets, a)
	writeJSON(w, http.StatusCreated, a.json())
}

func (s *Server) deleteAsset(w http.ResponseWriter, p map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, rel := range s.releases {
		if rel.owner != p["owner"] || rel.repo != p["repo"] {
			continue
		}
		for i, a := range rel.assets {
			if strconv.FormatInt(a.meta.GetID(), 10) == p["asset_id"] {
				rel.assets = append(rel.assets[:i:i], rel.assets[i+1:]...)
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
	}
	notFound(w, "assets#delete-a-release-asset")
}

// download serves github.com's /OWNER/REPO/releases/download/TAG/NAME, which
// is no REST operation: GitHub answers 302 to a storage host, here a path of
// the fake, which serves the bytes without a token (a public repository).
// Drafts are not downloadable.
func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if r.Method != http.MethodGet || len(parts) != 6 || parts[2] != "releases" || parts[3] != "download" {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if rel := s.releaseByTag(parts[0], parts[1], parts[4]); rel != nil {
		for _, a := range rel.assets {
			if a.meta.GetName() == parts[5] {
				http.Redirect(w, r, fmt.Sprintf("/_objects/%d", a.meta.GetID()), http.StatusFound)
				return
			}
		}
	}
	http.NotFound(w, r)
}

// object serves an asset's bytes by ID, as the storage host does.
func (s *Server) object(w http.ResponseWriter, r *http.Request) {
	id := strings.TrimPrefix(r.URL.Path, "/_objects/")
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, rel := range s.releases {
		for _, a := range rel.assets {
			if strconv.FormatInt(a.meta.GetID(), 10) == id {
				w.Header().Set("Content-Type", "application/octet-stream")
				_, _ = w.Write(a.data)
				return
			}
		}
	}
	http.NotFound(w, r)
}
