#!/usr/bin/env bash
# `make demo`: a short tour of the on-device model through the fm tool.
set -euo pipefail
fm="${1:?usage: demo.sh PATH-TO-fm}"
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "fm availability"
"$fm" availability

say "fm respond (a plain answer, greedy)"
"$fm" respond --greedy --max-tokens 48 --instructions "You are a helpful assistant. Answer in one sentence." \
    "What is the capital of France?"

say "fm respond --stream (printed as it is generated, seeded sampling)"
"$fm" respond --stream --temperature 0.7 --top-k 40 --seed 7 --max-tokens 80 \
    --instructions "You are a poet." "Write a short poem about the sea."
