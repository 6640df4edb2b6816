#!/usr/bin/env bash
# jobgo.sh note|restore: keeps the job's own Go toolchain the one its later
# steps, and perfgate's command suites, run. actions/setup-go (which builds
# perfgate with go.mod's Go) puts that Go first on PATH for the rest of the
# job and may export GOROOT, GOPATH or GOTOOLCHAIN: a perfgate upgrade would
# then move the numbers of a user's go test -bench suite.
#
# note (before setup-go) writes the job's go, GOTOOLCHAIN, GOROOT and GOPATH
# to $GITHUB_OUTPUT. restore (after the build) reads them back from
# PERFGATE_JOB_GO, PERFGATE_JOB_GOTOOLCHAIN, PERFGATE_JOB_GOROOT and
# PERFGATE_JOB_GOPATH, puts the job's go folder first on PATH again
# ($GITHUB_PATH) and resets the variables setup-go changed ($GITHUB_ENV; an
# empty value is the same as unset to go). A job without a Go keeps the
# one set up, and is told so.
set -euo pipefail
vars=(GOTOOLCHAIN GOROOT GOPATH)
case "${1:-}" in
  note)
    echo "go=$(command -v go 2>/dev/null || true)" >> "$GITHUB_OUTPUT"
    for v in "${vars[@]}"; do
      val="${!v-}"
      if [[ "$val" == *$'\n'* ]]; then
        val="" # cannot be written back as one line; go would reject it anyway
      fi
      printf '%s=%s\n' "$(printf '%s' "$v" | tr '[:upper:]' '[:lower:]')" "$val" >> "$GITHUB_OUTPUT"
    done
    ;;
  restore)
    go="${PERFGATE_JOB_GO:-}"
    if [ -n "$go" ] && [[ "$go" != *$'\n'* ]]; then
      dirname "$go" >> "$GITHUB_PATH"
      echo "perfgate: the job's Go ($go) stays first on PATH; perfgate was built with go.mod's Go"
    else
      echo "::notice title=perfgate::the job had no Go on PATH before this action: later steps and command suites get the Go it set up for its build ($(go version 2>/dev/null || echo unknown)); add actions/setup-go before perfgate to choose it"
    fi
    for v in "${vars[@]}"; do
      before="PERFGATE_JOB_$v"
      if [ "${!v-}" != "${!before-}" ]; then
        printf '%s=%s\n' "$v" "${!before-}" >> "$GITHUB_ENV"
      fi
    done
    ;;
  *)
    echo "usage: jobgo.sh note|restore" >&2
    exit 2
    ;;
esac
