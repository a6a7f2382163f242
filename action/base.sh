#!/usr/bin/env bash
# The Action's base step: for command: diff, find the Git revision to compare with, make sure the
# checkout has it, and hand it to the run step as the step output "revision"; for any other
# command, refuse a base input (it would do nothing) and output nothing.
#
# actions/checkout fetches one commit by default (fetch-depth: 1), so a pull request's base commit
# is usually missing; it is fetched here, one commit deep, rather than asking every user for the
# whole history (fetch-depth: 0), which stays the way out when fetching is not possible.
#
# Inputs (environment, set by action.yml and the runner):
#   JC_COMMAND         the command input: lint, validate, test or diff
#   JC_BASE            the base input: a branch, tag or commit; empty: the pull request's base commit
#   JC_PYTHON          the interpreter that reads the event file (default: python3; jq may be missing)
#   GITHUB_EVENT_NAME  the event that started the workflow
#   GITHUB_EVENT_PATH  the event's JSON, where pull_request.base.sha is
set -euo pipefail

fail() {
  echo "::error title=json-contracts::$1"
  exit 2
}

# Prints pull_request.base.sha of the event file given as the first argument, or exits 1.
READ_BASE_SHA='
import json, sys
try:
    with open(sys.argv[1], encoding="utf-8") as handle:
        sha = json.load(handle)["pull_request"]["base"]["sha"]
except (OSError, ValueError, KeyError, TypeError):
    sys.exit(1)
if not isinstance(sha, str) or len(sha) not in (40, 64) or sha.strip("0123456789abcdef"):
    sys.exit(1)
print(sha)
'

command="${JC_COMMAND:-lint}"
if [[ "$command" != diff ]]; then
  [[ -z "${JC_BASE:-}" ]] || fail "the base input is for command: diff, not $command"
  exit 0
fi

cd "${GITHUB_WORKSPACE:-.}" || fail "cannot enter GITHUB_WORKSPACE ($GITHUB_WORKSPACE)"

base="${JC_BASE:-}"
if [[ -z "$base" ]]; then
  event="${GITHUB_EVENT_NAME:-}"
  case "$event" in
    pull_request | pull_request_target) ;;
    *) fail "command diff needs a base revision: set the base input (a branch, tag or commit); it defaults to the pull request's base commit only on pull_request events, and this run's event is '${event:-none}'" ;;
  esac
  python="${JC_PYTHON:-python3}"
  base="$("$python" -c "$READ_BASE_SHA" "${GITHUB_EVENT_PATH:-}")" \
    || fail "cannot read pull_request.base.sha from the event file '${GITHUB_EVENT_PATH:-}'; set the base input"
fi

if [[ "$base" == -* ]]; then
  fail "base must be a branch, tag or commit, not '$base'"
fi

if ! problem="$(git rev-parse --git-dir 2>&1)"; then
  fail "cannot read a Git repository in $PWD (${problem##*$'\n'}); check it out with actions/checkout before this step"
fi

# "$base^{commit}" resolves a branch, tag or commit to the commit the diff reads.
if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
  echo "json-contracts: $base is not in the checkout; fetching it: git fetch --no-tags --depth=1 origin $base" >&2
  git fetch --no-tags --depth=1 origin "$base" >&2 \
    || fail "cannot fetch the base revision $base from origin; set fetch-depth: 0 on actions/checkout so the checkout has it"
  # A branch or tag name fetched this way is only FETCH_HEAD; a commit is now there by its name.
  if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
    base="$(git rev-parse --verify "FETCH_HEAD^{commit}")"
  fi
fi

echo "json-contracts: comparing with $base ($(git rev-parse --short "$base^{commit}"))" >&2
echo "revision=$base" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
