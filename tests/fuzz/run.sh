#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset: clang, ASan, UBSan, coverage)
# and runs each for SECONDS (default 30), starting from its seeds. A crash,
# a leak, a timeout (10 s per input) or an out-of-memory (2 GiB) stops the run
# and exits 1; the failing input is in build/fuzz/artifacts/TARGET/. Add it to
# tests/fuzz/regressions/TARGET/ once fixed, so the replay test keeps it.
#
#   tests/fuzz/run.sh            # every target, 30 s each (what CI runs)
#   tests/fuzz/run.sh 1800 fleet # one target for 30 minutes
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-30}
shift || true
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(parse prefix_list fleet set_algebra)
status=0
for t in "${targets[@]}"; do
  corpus=build/fuzz/corpus/$t
  artifacts=build/fuzz/artifacts/$t
  mkdir -p "$corpus" "$artifacts"
  # libFuzzer reads directories: single-file seeds are copied into the working corpus.
  dirs=()
  while read -r seed; do
    if [ -f "$seed" ]; then cp "$seed" "$corpus/"; elif [ -d "$seed" ]; then dirs+=("$seed"); fi
  done < "build/fuzz/tests/fuzz/seeds_$t.txt"
  echo "== $t: $seconds s"
  if ! build/fuzz/tests/fuzz/cidrcheck_fuzz_"$t" "$corpus" "${dirs[@]}" -max_total_time="$seconds" -timeout=10 \
       -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 -artifact_prefix="$artifacts/" 2>"build/fuzz/$t.log"; then
    echo "$t: FAILED; see build/fuzz/$t.log and $artifacts/"
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "build/fuzz/$t.log" | sed "s/^/   /"
done
exit $status
