#!/usr/bin/env bash
# The Action's run step: json-contracts <command> with GitHub annotations, the job summary and
# the counts as step outputs; the command's exit code is the step's.
#
# Inputs (environment, set by action.yml):
#   JC_BIN        the json-contracts executable (from the install step)
#   JC_COMMAND    lint, validate, test or diff
#   JC_CONTRACTS  the contracts folder, relative to $GITHUB_WORKSPACE
#   JC_STRICT     true or false (lint only: --strict or --no-strict, which beat pyproject.toml)
#   JC_BASE       diff only: the revision to compare with (from the base step, which fetched it)
#   JC_MODE       diff only: backward, forward, full or none (--mode); empty: pyproject.toml's, else backward
#   JC_ARGS       extra arguments, split on whitespace; never evaluated by the shell
set -uo pipefail

fail() {
  echo "::error title=json-contracts::$1"
  exit 2
}

bin="${JC_BIN:?JC_BIN is not set; the install step did not run}"
command="${JC_COMMAND:-lint}"
case "$command" in
  lint | validate | test | diff) ;;
  *) fail "command must be lint, validate, test or diff, not '$command'" ;;
esac
strict="${JC_STRICT:-true}"
case "$strict" in
  true | false) ;;
  *) fail "strict must be true or false, not '$strict'" ;;
esac
base="${JC_BASE:-}"
mode="${JC_MODE:-}"
if [[ "$command" == diff ]]; then
  [[ -n "$base" ]] || fail "command diff needs a base revision, and the base step found none"
  case "$mode" in
    "" | backward | forward | full | none) ;;
    *) fail "mode must be backward, forward, full or none, not '$mode'" ;;
  esac
elif [[ -n "$base" || -n "$mode" ]]; then
  fail "the base and mode inputs are for command: diff, not $command"
fi
extra=()
read -r -d '' -a extra <<<"${JC_ARGS:-}" || true # whitespace split, no globbing, no quotes

# Findings must be relative to the repository root for annotations to land on the file.
cd "${GITHUB_WORKSPACE:-.}" || fail "cannot enter GITHUB_WORKSPACE ($GITHUB_WORKSPACE)"

cmd=("$bin" "$command" --contracts "${JC_CONTRACTS:-json-contracts}" --format github)
if [[ "$command" == lint ]]; then
  # Both ways explicit: strict: "false" must win over strict = true in the repository's pyproject.toml.
  if [[ "$strict" == true ]]; then cmd+=(--strict); else cmd+=(--no-strict); fi
elif [[ "$command" == diff ]]; then
  cmd+=(--base "$base")
  if [[ -n "$mode" ]]; then cmd+=(--mode "$mode"); fi
fi
if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
  cmd+=(--summary "$GITHUB_STEP_SUMMARY")
fi
# The counts come from the same run as the annotations, written by the CLI itself: a second
# run would double the time, and the annotations are capped so they cannot be counted.
counts="$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/json-contracts-counts.XXXXXX")"
cmd+=(--counts "$counts" ${extra[@]+"${extra[@]}"}) # bash 3.2 (macOS) calls an empty array unbound

echo "json-contracts ${cmd[*]:1}" >&2
status=0
"${cmd[@]}" || status=$? # also under bash -e: the outputs are written before the exit

if [[ -s "$counts" && -n "${GITHUB_OUTPUT:-}" ]]; then
  cat "$counts" >>"$GITHUB_OUTPUT"
fi
rm -f "$counts"
exit "$status"
