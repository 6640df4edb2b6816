package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/google/uuid"

	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

// abSession is the state of one perfgate ab: the repository, the base
// worktree (always removed by cleanup) and both configurations. Every
// round of every side runs each suite in its own perfgate process.
type abSession struct {
	e                        *env
	o                        *abOptions
	root, wt, tmp            string
	baseSHA, headSHA         string
	headLabel, repo, testbed string
	headCfg, baseCfg         *config.Config
	group                    string
	prepared                 bool // both sides' prepare commands ran
}

func newABSession(ctx context.Context, e *env, o *abOptions) (*abSession, error) {
	s := &abSession{e: e, o: o, group: "ab-" + uuid.NewString()}
	var err error
	if s.root, err = gitIn(ctx, o.repo, "rev-parse", "--show-toplevel"); err != nil {
		return nil, usageError("-repo: %s is not inside a git repository: %v", o.repo, err)
	}
	if s.headSHA, err = gitIn(ctx, s.root, "rev-parse", "HEAD"); err != nil {
		return nil, usageError("-repo: the repository has no commits: %v", err)
	}
	if _, err = gitIn(ctx, s.root, "rev-parse", "--verify", "--quiet", o.base+"^{commit}"); err != nil {
		return nil, usageError("-base: %q is not a commit in %s", o.base, s.root)
	}
	if s.baseSHA, err = gitIn(ctx, s.root, "merge-base", o.base, "HEAD"); err != nil {
		return nil, usageError("-base: %q has no merge base with HEAD: %v", o.base, err)
	}
	s.headLabel = shortSHA(s.headSHA)
	if dirty, _ := gitIn(ctx, s.root, "status", "--porcelain", "--untracked-files=no"); dirty != "" {
		s.headLabel += " + uncommitted changes"
	}
	s.repo = defaultRepo(ctx, e)
	s.testbed = first(o.testbed, defaultTestbed(e))
	if err := s.loadHeadConfig(); err != nil {
		return nil, err
	}
	if err := s.addWorktree(ctx); err != nil {
		s.cleanup()
		return nil, err
	}
	if err := s.loadBaseConfig(); err != nil {
		s.cleanup()
		return nil, err
	}
	return s, nil
}

func (s *abSession) loadHeadConfig() error {
	path := s.o.configPath
	if path == "" {
		path = filepath.Join(s.root, config.DefaultFile)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return usageError("-config: %v", err)
	}
	s.headCfg, err = loadConfigAt(abs, s.o.configPath != "")
	return err
}

// addWorktree checks the merge base out into a temporary directory.
func (s *abSession) addWorktree(ctx context.Context) error {
	var err error
	if s.tmp, err = os.MkdirTemp("", "perfgate-ab-"); err != nil {
		return &model.InfraError{Op: "create a temporary directory", Err: err}
	}
	s.wt = filepath.Join(s.tmp, "base")
	if _, err := gitIn(ctx, s.root, "worktree", "add", "--detach", s.wt, s.baseSHA); err != nil {
		return &model.InfraError{Op: "check out the merge base", Err: err}
	}
	return nil
}

// loadBaseConfig uses the base side's own configuration when it has one at
// the same path, else the head's configuration applied to the base tree
// (the configuration is new in this branch).
func (s *abSession) loadBaseConfig() error {
	rel, err := abFilepathRel(realPath(s.root), realPath(s.headCfg.File))
	if err != nil {
		return err
	}
	path := filepath.Join(s.wt, rel)
	if _, err := os.Stat(path); err == nil {
		s.baseCfg, err = config.Load(path)
		return err
	}
	// A copy in the base tree (the worktree is ours and temporary): the
	// base side's processes load it as they would the base's own.
	fmt.Fprintf(s.e.Stderr, "perfgate: the base has no %s; using the head's configuration on the base tree\n", rel)
	data, err := os.ReadFile(s.headCfg.File)
	if err == nil {
		err = os.WriteFile(path, data, 0o644)
	}
	if err != nil {
		return &model.InfraError{Op: "copy the head's configuration into the base tree", Err: err}
	}
	s.baseCfg, err = config.Load(path)
	return err
}

// realPath resolves symbolic links (git prints the repository root resolved).
func realPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// cleanup removes the worktree and the temporary directory.
func (s *abSession) cleanup() {
	if s.wt != "" {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := gitIn(ctx, s.root, "worktree", "remove", "--force", s.wt); err != nil {
			fmt.Fprintf(s.e.Stderr, "perfgate: warning: %v\n", err)
		}
		gitIn(ctx, s.root, "worktree", "prune")
	}
	if s.tmp != "" {
		os.RemoveAll(s.tmp)
	}
}

// runRounds prepares both sides (the first time), then runs their suites
// alternately for rounds rounds, each suite of each side in its own
// perfgate process per round (runRound), in a suite order rotated every
// round.
func (s *abSession) runRounds(ctx context.Context, only *regexp.Regexp, rounds int) (base, head []*model.Results, err error) {
	opts := suiteRunOptions{Only: only, Fast: s.o.fast, Log: s.e.Stderr, CacheDir: s.e.Getenv("PERFGATE_CACHE")}
	bs := &abSide{name: "base", runner: &configRunner{cfg: s.baseCfg, opts: opts}, sha: s.baseSHA, branch: first(s.o.baseBranch, s.o.base)}
	hs := &abSide{name: "head", runner: &configRunner{cfg: s.headCfg, opts: opts}, sha: s.headSHA,
		branch: first(git(ctx, "-C", s.root, "rev-parse", "--abbrev-ref", "HEAD"), "HEAD")}
	for _, side := range []*abSide{bs, hs} {
		if side.units = side.runner.units(); len(side.units) == 0 {
			return nil, nil, usageError("-suite: no suite of %s matches %q", side.runner.cfg.File, s.o.only)
		}
		if s.prepared {
			continue
		}
		fmt.Fprintf(s.e.Stderr, "perfgate: ab: preparing %s (%s)\n", side.name, side.runner.cfg.Dir)
		if err := side.runner.prepare(ctx); err != nil {
			return nil, nil, fmt.Errorf("%s side: %w", side.name, err)
		}
	}
	s.prepared = true
	for i := 0; i < rounds; i++ {
		for _, side := range sidesOfRound(s.o.order, i, bs, hs) {
			run := abRunMeta(s.repo, side.sha, side.branch, s.testbed, s.group, time.Now())
			r, err := runRound(ctx, s.e, side.units, i, run, s.tmp, fmt.Sprintf("ab: round %d/%d, %s", i+1, rounds, side.name))
			if err != nil {
				return nil, nil, err
			}
			side.out = append(side.out, r)
		}
	}
	return bs.out, hs.out, nil
}
