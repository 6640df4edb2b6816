package cli

import (
	"flag"
	"sync"
)

// RenameEnv makes e.Getenv read the old variable of each renamed one
// (renamed maps the new name to the old) while the new one is empty,
// and say once on standard error that the old name is deprecated (or
// ignored, when both are set).
func (e *Env) RenameEnv(renamed map[string]string) {
	get := e.Getenv
	var mu sync.Mutex
	warned := map[string]bool{}
	e.Getenv = func(key string) string {
		v, old := get(key), renamed[key]
		if old == "" || get(old) == "" {
			return v
		}
		mu.Lock()
		first := !warned[old]
		warned[old] = true
		mu.Unlock()
		if v != "" {
			if first {
				e.Warn(old + " is deprecated and ignored: " + key + " is set")
			}
			return v
		}
		if first {
			e.Warn(old + " is deprecated: name it " + key)
		}
		return get(old)
	}
}

// RenameFlag defines old as a deprecated spelling of fs's flag named
// name: giving it sets that flag (FlagsGiven then holds both names) and
// says once on standard error that old is deprecated.
func RenameFlag(fs *flag.FlagSet, e *Env, old, name string) {
	arg, _ := flag.UnquoteUsage(fs.Lookup(name))
	fs.Var(&renamedFlag{fs: fs, e: e, old: old, name: name}, old, "deprecated: the old name of --"+name+" (`"+arg+"`)")
}

type renamedFlag struct {
	fs        *flag.FlagSet
	e         *Env
	old, name string
	warned    bool
}

// String is empty: the help shows the default once, on the new flag.
func (f *renamedFlag) String() string { return "" }

func (f *renamedFlag) Set(v string) error {
	if !f.warned {
		f.warned = true
		f.e.Warn("--" + f.old + " is deprecated: name it --" + f.name)
	}
	return f.fs.Set(f.name, v)
}
