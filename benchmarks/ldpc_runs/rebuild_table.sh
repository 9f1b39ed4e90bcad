#!/bin/sh
# Rebuilds the shipped FER table (crates/nandlab-core/data/ldpc_fer.{csv,json}) from the
# base JSON recorded beside it (benchmarks/ldpc_runs/base.json: the table before issue 38's
# second pass, strata emptied), the hard-row runs of this directory that came after it, and
# the strata of benchmarks/ldpc_strata/ (docs/ldpc.md section 4). Deterministic: the same
# inputs give the same bytes (the bootstrap is seeded by each row's RBER).
cd "$(dirname "$0")/../.." || exit 1
set -e
runs=""
for f in benchmarks/ldpc_runs/hard_8e-3_seed3950.json benchmarks/ldpc_runs/hard_7.5e-3_seed39[0-9][0-9].json; do
  [ -f "$f" ] && runs="$runs $f"
done
s=benchmarks/ldpc_strata
target/release/examples/ldpc_extend benchmarks/ldpc_runs/base.json "${1:-crates/nandlab-core/data/ldpc_fer.csv}" $runs \
  --strata $s/hard_seed2031.json --strata $s/hard_seed2032.json --strata $s/hard_seed2033.json \
  --strata $s/soft_k1_1.05e-2.json --strata $s/soft_k1_1.05e-2_seed2051.json \
  --strata $s/soft_k2_1.6e-2.json --strata $s/soft_k3_1.6e-2.json \
  --strata $s/soft_k6_1.85e-2.json --strata $s/soft_k6_1.85e-2_seed2076.json \
  --strata $s/soft_k6_1.8e-2.json \
  --strata $s/soft_k3_1.7e-2.json --strata $s/soft_k3_1.7e-2_seed2093.json \
  --strata $s/soft_k4_1.8e-2.json \
  --strata $s/soft_k5_1.85e-2.json --strata $s/soft_k5_1.85e-2_seed2095.json \
  --strata $s/soft_k3_1.7e-2_seed2103.json --strata $s/soft_k5_1.8e-2_seed2105.json \
  --strata $s/soft_k1_1.0e-2_seed5101.json --strata $s/soft_k2_1.5e-2_pooled.json \
  --strata $s/soft_k6_1.8e-2_seed2116.json --strata $s/soft_k6_1.8e-2_seed2126.json
