package site

import (
	_ "embed"
	"html"
)

var (
	//go:embed assets/app.js
	appJS []byte
	//go:embed assets/style.css
	styleCSS []byte
)

// page is the HTML of the index (slug "") or of one suite's page, with its
// data inlined (a JSON data block: browsers refuse fetch() to pages opened
// from disk, so the dashboard works from file:// as well as served). The
// suite name is escaped; the data is json.Marshal's, which writes <, > and
// & as \u escapes, so it cannot end the block; app.js sets every text with
// textContent.
func page(suite, slug string, data []byte) []byte {
	title := "perfgate dashboard"
	if suite != "" {
		title = suite + " · perfgate"
	}
	return []byte(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; img-src 'self' data:; style-src 'self'">
<title>` + html.EscapeString(title) + `</title>
<link rel="stylesheet" href="style.css">
</head>
<body data-suite="` + html.EscapeString(slug) + `">
<header><a href="index.html">perfgate</a> <span id="title">` + html.EscapeString(suite) + `</span> <span id="meta"></span></header>
<main id="app"><p id="status">Loading…</p></main>
<script type="application/json" id="data">` + string(data) + `</script>
<script src="app.js"></script>
</body>
</html>
`)
}
