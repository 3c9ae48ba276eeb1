# swift-foundation-models
#
# `make setup` installs the build tools, llama.cpp (built from source) and the
# default model into ${XDG_CACHE_HOME:-~/.cache}/swift-foundation-models and
# writes two equivalent environment files there, env.sh and env.mk, with:
#   PKG_CONFIG_PATH                  finds llama.pc (the CLlama system library)
#   FOUNDATION_MODELS_MODEL          the model to use (a value already set wins)
#   FOUNDATION_MODELS_DEFAULT_MODEL  the installed default model
#   FOUNDATION_MODELS_BENCH_MODEL    the benchmark model (after setup-bench)
#   LLAMA_PREFIX, LLAMA_SERVER, LLAMA_BENCH
# From a shell: `. ~/.cache/swift-foundation-models/env.sh`, or
#   eval "$(scripts/setup.sh --print-env)"

FM_CACHE := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/swift-foundation-models

# Every recipe that builds or runs Swift code depends on `setup` and starts
# with $(FM_ENV): the variables are read when the recipe runs, i.e. after
# setup wrote them, so a fresh clone works in a single `make test`.
# (An `include $(FM_CACHE)/env.mk` would be read when make starts, before
# setup ran, and miss the first run.)
FM_ENV := . "$(FM_CACHE)/env.sh" &&

.PHONY: setup setup-bench test-llamakit

# Idempotent; cheap when everything is installed (it checks stamp files).
setup:
	@scripts/setup.sh

# Also the benchmark model (Gemma 3 270M Q4_K_M).
setup-bench:
	@scripts/setup.sh --bench

# The shape of every consuming target:
test-llamakit: setup
	$(FM_ENV) swift test --filter LlamaKitTests
