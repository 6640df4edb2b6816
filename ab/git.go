package ab

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// gitIn runs git in dir and returns its trimmed standard output.
func gitIn(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// ShortSHA abbreviates a commit hash to 12 characters.
func ShortSHA(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}
