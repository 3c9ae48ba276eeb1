"""How fm serve's client scripts report, for the Swift tests that run them:
`ok: NAME` for a check that passed, `FAILED: NAME: why` for one that did
not, `info: ...` for a figure; `finish()` exits 1 if any check failed."""
import sys

failures = 0


def check(name, condition, why=""):
    global failures
    if condition:
        print(f"ok: {name}", flush=True)
    else:
        failures += 1
        print(f"FAILED: {name}: {why}", flush=True)


def info(text):
    print(f"info: {text}", flush=True)


def finish():
    sys.exit(1 if failures else 0)
