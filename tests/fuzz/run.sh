#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset: clang, ASan, UBSan, coverage)
# and runs each until it has used SECONDS (default 30) of CPU time, starting from
# its seeds. On a busy machine (or under nice) the fuzzer is restarted on its
# grown corpus until the CPU time is reached, so the figure means the same
# anywhere. A crash, a leak, a timeout (30 s per input) or an out-of-memory
# (2 GiB) stops the run and exits 1; the failing input is in
# build/fuzz/artifacts/TARGET/. Add it to tests/fuzz/regressions/TARGET/ once
# fixed, so the replay test keeps it.
#
#   tests/fuzz/run.sh                         # every target, 30 s each (what CI runs)
#   nice -n 19 tests/fuzz/run.sh 1800 fleet   # one target for 30 minutes (docs/limits.md)
#
# Per target it prints the CPU and wall seconds, the executions, the peak RSS and
# the slowest input's seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-30}
shift || true
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(parse prefix_list fleet set_algebra import config terraform_plan emit yaml_writers)
TIMEFORMAT='%R %U %S'
# One of libFuzzer's final statistics, from the part of the log a run added.
stat_of() { tail -c +"$from" "$log" | awk -v key="stat::$1:" '$1 == key { v = $2 } END { print v + 0 }'; }
status=0
for t in "${targets[@]}"; do
  corpus=build/fuzz/corpus/$t
  artifacts=build/fuzz/artifacts/$t
  log=build/fuzz/$t.log
  mkdir -p "$corpus" "$artifacts"
  : >"$log"
  # libFuzzer reads directories: single-file seeds are copied into the working corpus.
  dirs=()
  while read -r seed; do
    if [ -f "$seed" ]; then cp "$seed" "$corpus/"; elif [ -d "$seed" ]; then dirs+=("$seed"); fi
  done <"build/fuzz/tests/fuzz/seeds_$t.txt"
  echo "== $t: $seconds s of CPU time"
  cpu=0 wall=0 runs=0 rss=0 slowest=0 failed=0
  # Until the CPU time reaches SECONDS; each run gets the whole seconds left, at least one.
  while awk -v used="$cpu" -v want="$seconds" 'BEGIN { exit !(used < want) }'; do
    left=$(awk -v used="$cpu" -v want="$seconds" 'BEGIN { l = int(want - used); print (l < 1 ? 1 : l) }')
    from=$(($(wc -c <"$log") + 1))
    if ! times=$({ time build/fuzz/tests/fuzz/cidrcheck_fuzz_"$t" "$corpus" "${dirs[@]}" \
        -max_total_time="$left" -timeout=30 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" >>"$log" 2>&1; } 2>&1); then
      failed=1
    fi
    read -r w u s <<<"$times"
    cpu=$(awk -v a="$cpu" -v u="$u" -v s="$s" 'BEGIN { print a + u + s }')
    wall=$(awk -v a="$wall" -v w="$w" 'BEGIN { print a + w }')
    runs=$((runs + $(stat_of number_of_executed_units)))
    r=$(stat_of peak_rss_mb)
    [ "$r" -le "$rss" ] || rss=$r
    r=$(stat_of slowest_unit_time_sec)
    [ "$r" -le "$slowest" ] || slowest=$r
    [ $failed -eq 1 ] || continue
    # The timeout is wall-clock time: under nice on a busy machine a fast input can
    # wait that long for a CPU. One that runs within it on its own is set aside, and
    # the run goes on.
    timeout=$(tail -c +"$from" "$log" | grep -o "Test unit written to $artifacts/timeout-[0-9a-f]*" | awk '{ print $NF }' || true)
    if [ -n "$timeout" ] && build/fuzz/tests/fuzz/cidrcheck_fuzz_"$t" -timeout=30 "$timeout" >>"$log" 2>&1; then
      mkdir -p "$artifacts/spurious"
      mv "$timeout" "$artifacts/spurious/"
      echo "   a timeout that does not reproduce (machine load): $artifacts/spurious/${timeout##*/}"
      failed=0
      continue
    fi
    break
  done
  printf '   cpu %.0f s, wall %.0f s, %d executions, peak RSS %d MB, slowest input %d s\n' \
    "$cpu" "$wall" "$runs" "$rss" "$slowest"
  if [ $failed -ne 0 ]; then
    echo "$t: FAILED; see $log and $artifacts/"
    status=1
  fi
done
exit $status
