package report

// The messages the tests read spell flags as cmd/perfgate does; the
// library itself only names them (model.Flag).
import _ "github.com/perfgate/perfgate/internal/flagtest"
