package action

import (
	"net/url"
	"slices"
	"strings"
)

// roughPassword finds the password of a URL that may not parse (an '@'
// or a '%' left unencoded in it): what lies between the first ':' after
// the scheme and the last '@'.
func roughPassword(databaseURL string) string {
	_, rest, ok := strings.Cut(databaseURL, "://")
	if !ok {
		return ""
	}
	at := strings.LastIndexByte(rest, '@') // too far when the query holds an '@': masking more is safe
	if at < 0 {
		return ""
	}
	_, pw, ok := strings.Cut(rest[:at], ":")
	if !ok {
		return ""
	}
	return pw
}

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
	if databaseURL != "" && !strings.Contains(databaseURL, "://") && !strings.Contains(databaseURL, "=") {
		add(databaseURL) // neither form: it may be a bare password pasted in the wrong place
	}
	if u, err := url.Parse(databaseURL); err == nil {
		pw, _ := u.User.Password()
		for _, p := range []string{pw, u.Query().Get("password")} {
			add(p)
			add(url.QueryEscape(p))
			add(url.PathEscape(p))
		}
	}
	add(roughPassword(databaseURL))
	for _, f := range strings.Fields(databaseURL) {
		if k, v, ok := strings.Cut(f, "="); ok && k == "password" {
			add(strings.Trim(v, "'"))
		}
	}
	return out
}
