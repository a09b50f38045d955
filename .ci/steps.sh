# Sourced by .ci/run: runs its steps, in the foreground or in the background, and times each.
#   step NAME CMD…        runs CMD now; a failure stops the run, naming the step
#   start NAME CMD…       runs CMD in the background, its output in $ci_logs/NAME.log
#   await NAME            waits for a background step; a failure prints its log's tail and stops
#   times                 prints every step's seconds and the whole run's
# Each step's seconds go to $ci_logs/times (name, seconds), which .ci/README.md's table records.

ci_logs="${N8V_CI_LOGS:-$(mktemp -d /tmp/n8v-ci.XXXXXX)}"
mkdir -p "$ci_logs"
: >"$ci_logs/times"
ci_started=$SECONDS
declare -A ci_pids=()

step() {
    local name="$1" began=$SECONDS
    shift
    echo "ci: ▶ $name"
    if ! "$@"; then
        echo "ci: FAILED: $name (after $((SECONDS - began)) s)" >&2
        exit 1
    fi
    echo "$name $((SECONDS - began))" >>"$ci_logs/times"
    echo "ci: ✓ $name in $((SECONDS - began)) s"
}

start() {
    local name="$1"
    shift
    echo "ci: ▷ $name (in the background; log: $ci_logs/$name.log)"
    (
        began=$SECONDS
        if "$@" >"$ci_logs/$name.log" 2>&1; then
            echo "$name $((SECONDS - began))" >>"$ci_logs/times"
        else
            exit 1
        fi
    ) &
    ci_pids[$name]=$!
}

await() {
    local name="$1" began=$SECONDS
    if ! wait "${ci_pids[$name]}"; then
        echo "ci: FAILED: $name (in the background); the end of its log:" >&2
        tail -n 60 "$ci_logs/$name.log" >&2
        exit 1
    fi
    echo "ci: ✓ $name (waited $((SECONDS - began)) s for it)"
}

times() {
    echo "ci: seconds per step (background steps overlap the others)"
    awk '{ printf "  %-22s %5d\n", $1, $2 }' "$ci_logs/times"
    echo "ci: the whole run took $((SECONDS - ci_started)) s"
}
