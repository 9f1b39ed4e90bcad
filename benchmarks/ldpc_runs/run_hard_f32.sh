#!/bin/sh
# Issue 38, second pass: direct Monte Carlo of hard-decision rows on the table's own channel
# (coset frames) and decoder (f32, the table's), 2 threads at nice 10. First 20,000 frames at
# RBER 8e-3 (the row held 6 failures in 800 frames), then runs of 40,000 frames at 7.5e-3
# with distinct seeds until the time given as $1 (UTC, HH:MM) has passed. Each run is written
# as soon as it ends, so a cut-off keeps the finished ones; rebuild_table.sh pools them.
# Run as `run_hard_f32.sh 07:12` on 2026-11-28 and stopped by hand after seed 3906 (the
# clock): 8e-3 148/20,000; 7.5e-3 seeds 3901-3906, 69/240,000 (docs/ldpc.md section 4).
cd "$(dirname "$0")/../.." || exit 1
until=${1:-07:10}
bin=target/release/examples/ldpc_calibrate
run() { # rber frames seed
  out=benchmarks/ldpc_runs/hard_$1_seed$3.csv
  nice -n 10 $bin "$out" --levels 0 --rber-grid "$1" --frames "$2" \
    --min-failures 1000000000 --jobs 2 --batch 128 --seed "$3" || exit 1
  echo "$(date -u +%H:%M) rber $1 seed $3: $(grep -v '^#' "$out" | awk -F, 'NR==2 {print $3" frames, "$4" failures"}')" >&2
}
run 8e-3 20000 3950
for seed in $(seq 3901 3940); do
  [ "$(date -u +%H:%M)" \> "$until" ] && break
  run 7.5e-3 40000 "$seed"
done
