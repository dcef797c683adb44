# Sourced by the shell tests: missing_component WHAT ends a test whose component (a program, a
# package) is not installed. It skips (exit 77, CTest SKIP_RETURN_CODE) on a developer's
# machine and fails (exit 1) under CI=true, where scripts/setup.sh must have installed it.
missing_component() {
  if [ "${CI:-}" = true ]; then
    echo "FAILED (CI=true): $* (scripts/setup.sh installs it)" >&2
    exit 1
  fi
  echo "skipped: $*"
  exit 77
}
