#!/usr/bin/env bash
# The Python environment of fm serve's client tests: the official `openai`
# client, `jsonschema`, `prometheus_client` (its text parser reads /metrics)
# and schemathesis (fuzzes the routes against /openapi.json), pinned
# (scripts/python_env.sh). Prints the interpreter's path.
exec "$(dirname "$0")/python_env.sh" openai==1.109.1 jsonschema==4.23.0 prometheus-client==0.26.0 schemathesis==4.32.5
