# Sourced by the installers (scripts/e2e/install-tools.sh, scripts/agents/install.sh): one way to run
# an install step and to fail it.
#
# step "what" COMMAND…: runs COMMAND in the environment scrubbed by scripts/lib/clean-env.mjs, its
# output appended to $LOG; on failure says what failed, shows the log's tail and how to retry, and
# exits 1. The caller sets STEP_TAG (the prefix of every line), LOG, and STEP_RETRY (a function that
# prints the retry command for a failed step, given its name), and says in STEP_NOTE what a retry does
# with a half-finished install.
STEP_CLEAN_ENV="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/clean-env.mjs"

step() {
  local what="$1"
  shift
  echo "=== $(date -u +%FT%TZ) $what: $*" >>"$LOG"
  if ! node "$STEP_CLEAN_ENV" "$@" >>"$LOG" 2>&1; then
    {
      echo "$STEP_TAG: FAILED: $what"
      echo "$STEP_TAG:   command: $*"
      echo "$STEP_TAG:   last lines of $LOG:"
      tail -n 25 "$LOG" | sed 's/^/    | /'
      echo "$STEP_TAG: retry with: $(STEP_RETRY "$what")"
      echo "$STEP_TAG:   ($STEP_NOTE)"
    } >&2
    exit 1
  fi
}
