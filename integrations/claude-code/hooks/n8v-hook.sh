#!/bin/sh
# The plugin's hooks: runs `n8v-journal hook EVENT --harness claude-code` (EVENT is $1), which
# never fails a conversation and says in one line on stderr why it did nothing. This script adds
# the two causes the binary cannot report itself: it is not on PATH, or it is older than the
# plugin (no `hook` command). It always exits 0.
if ! command -v n8v-journal >/dev/null 2>&1; then
    echo "n8v-journal hook $1: n8v-journal is not on PATH; install it (cargo install --path . --locked, in its repository)" >&2
    exit 0
fi
if ! n8v-journal help hook >/dev/null 2>&1; then
    echo "n8v-journal hook $1: the n8v-journal on PATH is older than this plugin (it has no hook command); install it again" >&2
    exit 0
fi
event="$1"
shift
n8v-journal hook "$event" --harness claude-code "$@"
exit 0
