package ab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

// Options describe one interleaved A/B.
type Options struct {
	Base       string // git ref; its merge base with HEAD is the base side
	BaseBranch string // the base runs' branch label ("": Base)
	ConfigPath string // the head's configuration ("": .perfgate.yml at the repository root)
	Dir        string // a directory inside the git repository
	Order      string // OrderABBA or OrderABAB
	Fast       bool   // lower GPU time budgets
	Repo       string // owner/name for the run blocks
	Testbed    string // testbed for the run blocks
}

// Check reports the flags of perfgate ab that cannot run, before anything
// does: Base is required, rounds is from 1 to runner.MaxRounds (the bound
// of perfgate run and of the action's rounds input), Order is OrderABBA or
// OrderABAB. Each is a model.InputError.
func (o Options) Check(rounds int) error {
	switch {
	case o.Base == "":
		return model.SettingError("base", "required (a git ref such as main or origin/main)")
	case rounds < 1 || rounds > runner.MaxRounds:
		return model.SettingError("rounds", "must be from 1 to %d, got %d", runner.MaxRounds, rounds)
	case o.Order != OrderABBA && o.Order != OrderABAB:
		return model.SettingError("order", "must be abba or abab, got %q", o.Order)
	}
	return nil
}

// A Session is one interleaved A/B: the repository, the base worktree
// (always removed by Close) and both configurations.
type Session struct {
	r                *runner.Runner
	o                Options
	root, wt, tmp    string
	BaseSHA, HeadSHA string
	// HeadLabel names the head in messages: its short SHA, and whether the
	// working tree has uncommitted changes.
	HeadLabel           string
	HeadConfig, baseCfg *config.Config
	group               string
	prepared            bool // both sides' prepare commands ran
}

// Open checks out the merge base of o.Base and HEAD into a temporary
// worktree and loads both sides' configurations. Bad input (not a
// repository, an unknown ref, a missing configuration) is a
// model.InputError.
func Open(ctx context.Context, r *runner.Runner, o Options) (*Session, error) {
	if o.Order != OrderABBA && o.Order != OrderABAB {
		return nil, model.SettingError("order", "must be abba or abab, got %q", o.Order)
	}
	s := &Session{r: r, o: o, group: "ab-" + uuid.NewString()}
	var err error
	if s.root, err = gitIn(ctx, o.Dir, "rev-parse", "--show-toplevel"); err != nil {
		return nil, model.SettingError("repo", "%s is not inside a git repository: %v", o.Dir, err)
	}
	if s.HeadSHA, err = gitIn(ctx, s.root, "rev-parse", "HEAD"); err != nil {
		return nil, model.SettingError("repo", "the repository has no commits: %v", err)
	}
	if _, err = gitIn(ctx, s.root, "rev-parse", "--verify", "--quiet", o.Base+"^{commit}"); err != nil {
		return nil, model.SettingError("base", "%q is not a commit in %s", o.Base, s.root)
	}
	if s.BaseSHA, err = gitIn(ctx, s.root, "merge-base", o.Base, "HEAD"); err != nil {
		return nil, model.SettingError("base", "%q has no merge base with HEAD: %v", o.Base, err)
	}
	s.HeadLabel = model.ShortSHA(s.HeadSHA)
	if dirty, _ := gitIn(ctx, s.root, "status", "--porcelain", "--untracked-files=no"); dirty != "" {
		s.HeadLabel += " + uncommitted changes"
	}
	if err := s.loadHeadConfig(ctx); err != nil {
		return nil, err
	}
	if err := s.addWorktree(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.loadBaseConfig(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Session) loadHeadConfig(ctx context.Context) error {
	path := s.o.ConfigPath
	if path == "" {
		path, _ = config.Find(ctx, s.root) // the one rule of where .perfgate.yml is
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return model.SettingError("config", "%v", err)
	}
	if _, err := os.Stat(abs); errors.Is(err, os.ErrNotExist) && s.o.ConfigPath == "" {
		return model.SettingError("config", "no %s at the repository root (%s); write one (see docs/config.md) or pass %s", config.DefaultFile, abs, model.Flag("config"))
	}
	s.HeadConfig, err = config.Load(abs)
	return err
}

// addWorktree checks the merge base out into a temporary directory.
func (s *Session) addWorktree(ctx context.Context) error {
	var err error
	if s.tmp, err = os.MkdirTemp("", "perfgate-ab-"); err != nil {
		return &model.InfraError{Op: "create a temporary directory", Err: err}
	}
	s.wt = filepath.Join(s.tmp, "base")
	if _, err := gitIn(ctx, s.root, "worktree", "add", "--detach", s.wt, s.BaseSHA); err != nil {
		return &model.InfraError{Op: "check out the merge base", Err: err}
	}
	return nil
}

// loadBaseConfig uses the base side's own configuration when it has one at
// the same path, else the head's configuration applied to the base tree
// (the configuration is new in this branch).
func (s *Session) loadBaseConfig() error {
	rel, err := filepath.Rel(realPath(s.root), realPath(s.HeadConfig.File))
	if err != nil || strings.HasPrefix(rel, "..") {
		return model.SettingError("config", "%s is outside the repository %s", s.HeadConfig.File, s.root)
	}
	path := filepath.Join(s.wt, rel)
	if _, err := os.Stat(path); err == nil {
		s.baseCfg, err = config.Load(path)
		return err
	}
	// A copy in the base tree (the worktree is ours and temporary): the
	// base side's processes load it as they would the base's own.
	fmt.Fprintf(s.r.Log, "perfgate: the base has no %s; using the head's configuration on the base tree\n", rel)
	data, err := os.ReadFile(s.HeadConfig.File)
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

// Close removes the worktree and the temporary directory.
func (s *Session) Close() {
	if s.wt != "" {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := gitIn(ctx, s.root, "worktree", "remove", "--force", s.wt); err != nil {
			fmt.Fprintf(s.r.Log, "perfgate: warning: %v\n", err)
		}
		gitIn(ctx, s.root, "worktree", "prune")
		s.wt = ""
	}
	if s.tmp != "" {
		os.RemoveAll(s.tmp)
		s.tmp = ""
	}
}

// DefaultRounds is how many rounds perfgate ab runs unless told: more
// than the action's (runner.DefaultActionRounds), since ab reads no stored
// history and the spread between processes comes from its rounds alone.
const DefaultRounds = 5

func inputErr(format string, args ...any) error {
	return &model.InputError{Msg: fmt.Sprintf(format, args...)}
}
