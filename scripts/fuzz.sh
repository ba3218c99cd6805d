#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for SECONDS (default 60),
# FUZZ_JOBS (default 2, the cores) targets at a time: every target still gets its full time.
# Fails on any crash, leak, UB report or timeout; prints executions and corpus size per target.
# Seeds: tests/fuzz/seeds/<target>/ plus a freshly written project file (needs build/release).
# FUZZ_SEED=N makes a run repeatable (CI uses one, so a run that passed here passes there); without
# it each run explores anew.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/ccache-env.sh
SECONDS_PER_TARGET="${1:-60}"
CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCHEDLAB_FUZZ=ON \
    -DCMAKE_CXX_COMPILER=clang++ > build-fuzz-configure.log 2>&1 || { cat build-fuzz-configure.log; exit 1; }
rm -f build-fuzz-configure.log
cmake --build build/fuzz -j2
mkdir -p build/fuzz/corpus build/fuzz/artifacts
if [ -x build/release/app/cli/schedlab-cli ]; then
    mkdir -p build/fuzz/corpus/project
    rm -f build/fuzz/corpus/project/seed.schedlab*
    build/release/app/cli/schedlab-cli replay tests/data/tiny/jobs.swf --mode timed --policy firstfit \
        --project build/fuzz/corpus/project/seed.schedlab > /dev/null
    rm -f build/fuzz/corpus/project/seed.schedlab-wal build/fuzz/corpus/project/seed.schedlab-shm
fi
summary=""
# Real accounting logs seed their targets from ../shared/traces (copied into build/, never the repo).
T=../shared/traces
if [ -d "$T" ]; then
    mkdir -p build/fuzz/corpus/sacct build/fuzz/corpus/lsf
    head -40 "$T/slurm-xdmod-ccr-2016/phillips.log" > build/fuzz/corpus/sacct/real-xdmod.txt
    # sed reads the whole stream: `zcat | head` would end zcat with SIGPIPE, which pipefail makes fatal.
    zcat "$T/slurm-kabre-2024/sacct.csv.gz" | sed -n '1,40p' > build/fuzz/corpus/sacct/real-kabre.txt
    head -40 "$T/hpc-aws-testcluster-2022/sacct-output-v1.txt" > build/fuzz/corpus/sacct/real-aws.txt
    head -20 "$T/hpc-aws-testcluster-2022/lsb.acct.16" > build/fuzz/corpus/lsf/real-lsb.acct
    mkdir -p build/fuzz/corpus/k8s
    S="$T/k8s-sonobuoy-aws-2017/resources"
    install -m 644 "$S/cluster/Nodes.json" build/fuzz/corpus/k8s/real-nodes.json
    install -m 644 "$S/ns/heptio-sonobuoy/Pods.json" build/fuzz/corpus/k8s/real-pods.json
    install -m 644 "$S/ns/default/Events.json" build/fuzz/corpus/k8s/real-events.json
    mkdir -p build/fuzz/corpus/autoscale_instances # rows after the header the target writes itself
    sed -n '2,40p' "$T/alibaba-gpu-v2025/disaggregated_DLRM_trace.csv" | cut -d, -f1-3,15-17 \
        > build/fuzz/corpus/autoscale_instances/real-dlrm.txt
fi
# One target: corpus from the seeds and regressions, then libFuzzer for SECONDS_PER_TARGET.
fuzz_one() {
    local target="$1" corpus="build/fuzz/corpus/$1" log="build/fuzz/$1.log"
    mkdir -p "$corpus"
    cp -n tests/fuzz/seeds/$target/* "$corpus"/ 2>/dev/null || true
    # Inputs that once crashed a target stay in its corpus (and have a unit test each).
    for r in tests/fuzz/regressions/"${target%%_*}"-*; do [ -e "$r" ] && cp -n "$r" "$corpus"/; done
    ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "build/fuzz/tests/fuzz/fuzz_$target" "$corpus" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 \
        -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 ${FUZZ_SEED:+-seed=$FUZZ_SEED} -artifact_prefix="build/fuzz/artifacts/$target-" \
        > "$log" 2>&1
}
TARGETS=(openb_nodes openb_pods swf google_tasks native loader sacct lsf k8s decision_log scheduler_log recorder scheduler_config sweep_plan autoscale_load autoscale_service autoscale_instances project checkpoint)
JOBS="${FUZZ_JOBS:-2}"
declare -A pids=()
failed=""
for target in "${TARGETS[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
    echo "fuzz_$target: ${SECONDS_PER_TARGET}s"
    fuzz_one "$target" &
    pids[$target]=$!
done
for target in "${TARGETS[@]}"; do
    if ! wait "${pids[$target]}"; then
        tail -60 "build/fuzz/$target.log"
        echo "fuzz_$target FAILED (artifacts in build/fuzz/artifacts/)"
        failed+=" $target"
    fi
done
[ -z "$failed" ] || exit 1
for target in "${TARGETS[@]}"; do
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "build/fuzz/$target.log" | grep -o '[0-9]*$' || echo "?")
    files=$(ls "build/fuzz/corpus/$target" | wc -l)
    summary+=$(printf '%-22s %10s executions %6s corpus files' "fuzz_$target" "$execs" "$files")$'\n'
done
echo "fuzz summary:"
printf '%s' "$summary"
