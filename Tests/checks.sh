# The counted checks of the shell test scripts (Tests/CLibrary/run.sh, Tests/Python/run.sh,
# Tests/Package/run.sh, Examples/consumer/check.sh), sourced with the label their last line
# carries, which Scripts/test reads:
#
#   source "$root/Tests/checks.sh" LABEL
#   check NAME COMMAND...   runs the command; counts it passed or failed and says which
#   finish                  prints "LABEL: N passed, M failed[, K skipped]" and exits 1 on a failure
checks_label="$1"
passed=0
failed=0
skipped=0
check() {
  local name="$1"; shift
  if "$@"; then passed=$((passed + 1)); echo "ok    $name"; else failed=$((failed + 1)); echo "FAIL  $name"; fi
}
finish() {
  local also=""
  [ "$skipped" -eq 0 ] || also=", $skipped skipped"
  echo "$checks_label: $passed passed, $failed failed$also"
  [ "$failed" -eq 0 ]
  exit $?
}
