package action

import (
	"net/url"
	"slices"
	"strings"
)

// Secrets lists the values to mask in the job log before anything is
// printed: the token, and the password of the database URL in URL form
// (also percent-encoded) or key=value form.
func Secrets(token, databaseURL string) []string {
	var out []string
	add := func(s string) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	add(token)
	if u, err := url.Parse(databaseURL); err == nil {
		pw, _ := u.User.Password()
		for _, p := range []string{pw, u.Query().Get("password")} {
			add(p)
			add(url.QueryEscape(p))
			add(url.PathEscape(p))
		}
	}
	for _, f := range strings.Fields(databaseURL) {
		if k, v, ok := strings.Cut(f, "="); ok && k == "password" {
			add(strings.Trim(v, "'"))
		}
	}
	return out
}
