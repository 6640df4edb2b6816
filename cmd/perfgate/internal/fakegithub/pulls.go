package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// A Pull is a pull request as a test sets it up (SetPull): the fake answers
// pulls/get with it, and repos/list-pull-requests-associated-with-commit
// for its head and its merge commit.
type Pull struct {
	Number           int
	State            string // open or closed
	HeadSHA, HeadRef string
	HeadRepo         string // owner/name; "" = the base repository
	BaseSHA, BaseRef string
	MergeCommitSHA   string    // set once merged
	MergedAt         time.Time // zero: not merged
}

// SetPull adds or replaces a pull request of owner/repo.
func (s *Server) SetPull(owner, repo string, p Pull) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pulls == nil {
		s.pulls = map[string]Pull{}
	}
	if p.HeadRepo == "" {
		p.HeadRepo = owner + "/" + repo
	}
	s.pulls[fmt.Sprintf("%s/%s#%d", owner, repo, p.Number)] = p
}

// SetPermission sets what repos/get-collaborator-permission-level answers
// for user: permission is admin, write, read or none, role the role_name
// (admin, maintain, write, triage, read). A user never set is no
// collaborator: 404, as GitHub answers.
func (s *Server) SetPermission(owner, repo, user, permission, role string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.perms == nil {
		s.perms = map[string][2]string{}
	}
	s.perms[owner+"/"+repo+"@"+user] = [2]string{permission, role}
}

// Reactions returns the reactions added to an issue comment, in order.
func (s *Server) Reactions(owner, repo string, commentID int64) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.reactions[fmt.Sprintf("%s/%s/%d", owner, repo, commentID)]...)
}

// handlePulls serves the pull-request, permission and reaction operations;
// it reports whether op was one of them.
func (s *Server) handlePulls(w http.ResponseWriter, r *http.Request, op *Operation, p map[string]string, body []byte) bool {
	root, full := "http://"+r.Host, p["owner"]+"/"+p["repo"]
	switch op.ID {
	case "pulls/get":
		s.mu.Lock()
		pr, ok := s.pulls[full+"#"+p["pull_number"]]
		s.mu.Unlock()
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return true
		}
		writeJSON(w, http.StatusOK, pullJSON(root, full, pr))
	case "repos/list-pull-requests-associated-with-commit":
		s.mu.Lock()
		items := []any{}
		for _, pr := range s.pulls {
			if pr.HeadSHA == p["commit_sha"] || pr.MergeCommitSHA != "" && pr.MergeCommitSHA == p["commit_sha"] {
				items = append(items, pullJSON(root, full, pr))
			}
		}
		s.mu.Unlock()
		s.writePage(w, r, items)
	case "repos/get-collaborator-permission-level":
		s.mu.Lock()
		perm, ok := s.perms[full+"@"+p["username"]]
		s.mu.Unlock()
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return true
		}
		writeJSON(w, http.StatusOK, map[string]any{"permission": perm[0], "role_name": perm[1],
			"user": map[string]any{"login": p["username"], "id": 1, "type": "User"}})
	case "reactions/create-for-issue-comment":
		var v struct {
			Content string `json:"content"`
		}
		if err := json.Unmarshal(body, &v); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
			return true
		}
		s.mu.Lock()
		if s.reactions == nil {
			s.reactions = map[string][]string{}
		}
		key := full + "/" + p["comment_id"]
		s.reactions[key] = append(s.reactions[key], v.Content)
		s.nextID++
		id := s.nextID
		user := s.identity
		s.mu.Unlock()
		writeJSON(w, http.StatusCreated, map[string]any{"id": id, "node_id": fmt.Sprintf("REA_fake%d", id), "content": v.Content,
			"user": user, "created_at": fixedTime})
	default:
		return false
	}
	return true
}

// pullJSON is a pull request as GitHub returns it: every field the REST
// description requires, most of them empty.
func pullJSON(root, full string, pr Pull) map[string]any {
	api := root + BasePath + "/repos/" + full
	n := strconv.Itoa(pr.Number)
	var merged, mergeSHA any
	if !pr.MergedAt.IsZero() {
		merged, mergeSHA = pr.MergedAt.UTC().Format(time.RFC3339), pr.MergeCommitSHA
	}
	ref := func(sha, ref, repo string) map[string]any {
		return map[string]any{"sha": sha, "ref": ref, "label": ref, "repo": map[string]any{"full_name": repo}, "user": bot}
	}
	out := map[string]any{
		"url": api + "/pulls/" + n, "id": pr.Number, "node_id": "PR_fake" + n, "number": pr.Number, "state": pr.State,
		"html_url": root + "/" + full + "/pull/" + n, "diff_url": root + "/" + full + "/pull/" + n + ".diff",
		"patch_url": root + "/" + full + "/pull/" + n + ".patch", "issue_url": api + "/issues/" + n,
		"commits_url": api + "/pulls/" + n + "/commits", "review_comments_url": api + "/pulls/" + n + "/comments",
		"review_comment_url": api + "/pulls/comments{/number}", "comments_url": api + "/issues/" + n + "/comments",
		"statuses_url": api + "/statuses/" + pr.HeadSHA, "title": "pull request " + n, "body": nil, "user": bot,
		"labels": []any{}, "milestone": nil, "locked": false, "assignee": nil, "created_at": fixedTime, "updated_at": fixedTime,
		"closed_at": merged, "merged_at": merged, "merge_commit_sha": mergeSHA, "author_association": "MEMBER", "auto_merge": nil,
		"head": ref(pr.HeadSHA, pr.HeadRef, pr.HeadRepo), "base": ref(pr.BaseSHA, pr.BaseRef, full), "_links": map[string]any{},
		// pulls/get's own fields.
		"merged": merged != nil, "mergeable": nil, "mergeable_state": "unknown", "merged_by": nil, "comments": 0,
		"review_comments": 0, "maintainer_can_modify": false, "commits": 1, "additions": 0, "deletions": 0, "changed_files": 0,
	}
	return out
}
