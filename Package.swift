// swift-tools-version: 6.2
// swift-foundation-models: Apple's FoundationModels API wherever Swift runs.
// Copyright the swift-foundation-models authors. Licensed under the Apache
// License, Version 2.0 (LICENSE); SPDX-License-Identifier: Apache-2.0.
import CompilerPluginSupport
import PackageDescription

/// What a new Xcode app project sets: SWIFT_DEFAULT_ACTOR_ISOLATION =
/// MainActor, SWIFT_APPROACHABLE_CONCURRENCY (of its five features, the two
/// Swift 6 mode lacks; `approachableInSwift5` has the other three, and the
/// bare /regex/ literals Swift 6 has and Xcode turns on in Swift 5) and
/// member import visibility. APP_DEFAULT_MAIN_ACTOR lets the shared app
/// sources name this mode's one compiler limitation (Models/RecipeModels.swift).
let xcodeAppSettings: [SwiftSetting] = [
    .defaultIsolation(MainActor.self),
    .enableUpcomingFeature("InferIsolatedConformances"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .define("APP_DEFAULT_MAIN_ACTOR"),
]
let approachableInSwift5: [SwiftSetting] = [
    .swiftLanguageMode(.v5),
    .enableUpcomingFeature("DisableOutwardActorInference"),
    .enableUpcomingFeature("GlobalActorIsolatedTypesUsability"),
    .enableUpcomingFeature("InferSendableFromCaptures"),
    // Xcode's -enable-bare-slash-regex (regex literal guides).
    .enableUpcomingFeature("BareSlashRegexLiterals"),
]

/// An example of an app's pattern (Examples/<name>): the feature as a
/// library (public API only: FoundationModels, FoundationModelsTiers,
/// FoundationModelsKit), a short program that tours it (`make demo` runs
/// them), and its tests. The program and the tests may use the eval
/// (`demoDependencies`, `testDependencies`: FoundationModelsEval) to judge
/// answers with its scorers; the library may not (the eval depends on it).
func example(
    _ name: String,
    program: String,
    dependencies: [Target.Dependency] = [],
    resources: [Resource]? = nil,
    demoDependencies: [Target.Dependency] = [],
    testDependencies: [Target.Dependency] = []
) -> [Target] {
    [
        .target(
            name: name,
            dependencies: ["FoundationModels", "FoundationModelsKit"] + dependencies,
            path: "Examples/\(name)/Sources",
            resources: resources
        ),
        .executableTarget(
            name: program,
            dependencies: [.target(name: name), "FoundationModels", "FoundationModelsKit", "TerminalSupport"] + demoDependencies,
            path: "Examples/\(name)/Demo"
        ),
        .testTarget(
            name: "\(name)Tests",
            dependencies: [.target(name: name), "FoundationModels", "FoundationModelsKit", "TestSupport"] + testDependencies,
            path: "Examples/\(name)/Tests"
        ),
    ]
}

let package = Package(
    name: "swift-foundation-models",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "FoundationModels", targets: ["FoundationModels"]),
        // The routing layer over the model tiers (on device, private cloud,
        // frontier): apart, so FoundationModels stays Apple's shape.
        .library(name: "FoundationModelsTiers", targets: ["FoundationModelsTiers"]),
        // What apps on the framework rewrite by hand: a response cache with
        // expiry and fingerprints, bounded prompt inputs, user-facing
        // messages for availability and errors.
        .library(name: "FoundationModelsKit", targets: ["FoundationModelsKit"]),
        .executable(name: "fm", targets: ["fm"]),
        .executable(name: "fm-serve", targets: ["fm-serve"]),
        .executable(name: "fm-bench", targets: ["fm-bench"]),
    ],
    // The in-process llama.cpp model (`SystemLanguageModel`), on by default.
    // A package that wants only the server models, the router and the kit
    // turns it off (`traits: []` on its `.package` line) and builds with no
    // native library: `SystemLanguageModel` is then unavailable, saying why.
    // DataAttachments (off by default) adds what Apple's 27.2 documentation
    // adds beyond the shipped SDK: `Transcript.Attachment.data` and data
    // attachments. Off, the enum has the shipped SDK's cases, so the
    // exhaustive switches apps write against it compile.
    traits: [
        .trait(
            name: "LlamaCpp",
            description: "The in-process model: llama.cpp through its C API (scripts/setup.sh installs the pinned release)."
        ),
        .trait(
            name: "DataAttachments",
            description: "Apple 27.2's data attachments: Transcript.Attachment.data, Transcript.DataAttachment, DataAttachmentRepresentable."
        ),
        .default(enabledTraits: ["LlamaCpp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // HTTP for the server models (Models/Remote): streams and cancels
        // cleanly without spinning a core, which Linux's URLSession does
        // while a request is in flight (docs/ARCHITECTURE.md).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        // YAML for the coaching-report example's prompt templates (its
        // library target only: the framework does not depend on it).
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // HTTP serving for `fm serve` (its program, fm-serve, only: the
        // framework and fm do not depend on it).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.20.0"),
        // Its graceful shutdown, bounded (Hummingbird's own dependency).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // `fm serve`'s metrics (its server target only): recorded through
        // swift-metrics (already Hummingbird's dependency) into a Prometheus
        // registry of each server's own, which `GET /metrics` serves.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Spans of the in-process engine's phases (queue wait, prefill,
        // decode) and of `fm serve`'s requests: the API only, no-op unless a
        // tracer is bootstrapped (already AsyncHTTPClient's and
        // Hummingbird's dependency). 1.7.3 for `withTracer`, which scopes a
        // tracer to a task (the tests' in-memory tracers).
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    ],
    targets: [
        // llama.cpp's C API, found through pkg-config: `llama.pc` from
        // scripts/setup.sh (linked into /usr/local/lib/pkgconfig when it may
        // write there, else named by PKG_CONFIG_PATH) or a llama.cpp the
        // user installed. Without one, shim.h stops the build saying what to run.
        .systemLibrary(
            name: "CLlama",
            pkgConfig: "llama"
        ),
        // Layer 5 (models, docs/ARCHITECTURE.md): a thin, owning Swift layer over llama.cpp.
        .target(
            name: "LlamaKit",
            dependencies: [
                "CLlama",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Layer 4: guided generation. Schema IR -> token constraints over a
        // vocabulary (allowed-token masks, forced runs); pure Swift, no
        // dependencies, testable without a model.
        .target(name: "GuidedGeneration"),
        // Layers 1-3 and 5: the public API (Apple's surface), the session
        // engine, the executor contract, and the models behind it (Models/).
        .target(
            name: "FoundationModels",
            dependencies: [
                "FoundationModelsMacros",
                "GuidedGeneration",
                .target(name: "LlamaKit", condition: .when(traits: ["LlamaCpp"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // Layer 6: routing between model tiers by per-feature policy.
        .target(
            name: "FoundationModelsTiers",
            dependencies: ["FoundationModels"]
        ),
        // Layer 6: the package's one way to run a child process: a run to
        // its end (status, standard output, standard error) and a server
        // beside this process, never left running (docs/ARCHITECTURE.md).
        .target(name: "ChildProcess"),
        // Layer 6: the apps' reusable pieces (docs/ARCHITECTURE.md).
        .target(
            name: "FoundationModelsKit",
            dependencies: [
                "FoundationModels",
                "ChildProcess",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the command-line programs share (fm and the examples'
        // programs): terminal detection, colour, progress, error reports.
        .target(name: "TerminalSupport"),
        // The @Generable / @Guide compiler plugin: the types the compiler
        // names, over the expansions in a plain library. Its tests import
        // the library, never the plugin: a test target that depends on a
        // macro has SwiftPM build the whole test product, and every module
        // below it, a second time for the host.
        .macro(
            name: "FoundationModelsMacros",
            dependencies: [
                "FoundationModelsMacroExpansions",
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "FoundationModelsMacroExpansions",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        // Layer 6: the eval loop (`fm eval`, `make eval` -> EVAL.md): golden
        // corpora of the apps' tasks, per-field scoring, and the runs that
        // answer them four ways (guided, free text, llama-server's JSON
        // Schema grammar, which it starts on 127.0.0.1, and the example's
        // own pipeline). The tasks are the examples' own types, instructions
        // and prompts: one definition of each, measured where it ships.
        .target(
            name: "FoundationModelsEval",
            dependencies: [
                "FoundationModels", "FoundationModelsKit", "ChildProcess", "GuidedGeneration", "LlamaKit", "ReceiptExtraction", "TicketTriage",
                "Flashcards", "VinylCollection", "CoachingReport",
            ]
        ),
        // Layer 6: the command-line tool.
        .executableTarget(
            name: "fm",
            dependencies: [
                "FoundationModels",
                "FoundationModelsTiers",
                "FoundationModelsEval",
                "FoundationModelsKit",
                "TerminalSupport",
                // `fm schema TYPE` and `fm tokens --type TYPE`: the examples' types.
                "VinylCollection",
                "ReceiptExtraction",
                "Flashcards",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Layer 6: the OpenAI-compatible server over a LanguageModel (`fm serve`).
        .target(
            name: "FoundationModelsServer",
            dependencies: [
                "FoundationModels",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // `fm serve`'s program, which fm runs: apart from fm, so that fm's
        // build (and the tour's) does not compile the HTTP server.
        .executableTarget(
            name: "fm-serve",
            dependencies: [
                "FoundationModels",
                "FoundationModelsServer",
                "FoundationModelsTiers",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `make bench`: the session against llama.cpp's own tools; writes BENCHMARKS.md.
        .executableTarget(
            name: "fm-bench",
            dependencies: ["FoundationModels", "FoundationModelsEval", "FoundationModelsTiers", "GuidedGeneration", "LlamaKit", "ChildProcess"]
        ),
        // What tests need from the machine (a model, llama-server, a run of
        // their own), declared as traits and tags: a test whose need is
        // absent is skipped with its reason (README, "Tests").
        .target(
            name: "TestSupport",
            dependencies: ["FoundationModels", "ChildProcess"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "FoundationModelsTests",
            dependencies: [
                "FoundationModels",
                "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        // The `fm` program (Sources/fm), run as a child process: its command
        // line, Apple's, and `fm chat` through a pseudo-terminal.
        .testTarget(
            name: "fmTests",
            dependencies: ["FoundationModels", "TestSupport"]
        ),
        // `fm-bench`'s command line (Sources/fm-bench), run as a child process.
        .testTarget(
            name: "fm-benchTests",
            dependencies: ["TestSupport"]
        ),
        // `fm serve` end to end (Sources/fm-serve over FoundationModelsServer):
        // the program run as a child process on 127.0.0.1, answered by the
        // official Python client (fm_serve_*.py), a browser and wrk.
        .testTarget(
            name: "fm-serveTests",
            dependencies: ["FoundationModels", "TestSupport"],
            exclude: [
                "fm_serve_browser.html", "fm_serve_browser.py", "fm_serve_checks.py", "fm_serve_client.py",
                "fm_serve_load.py", "fm_serve_ops.py", "fm_serve_responses.py", "fm_serve_wrk.lua",
            ]
        ),
        // Code shaped exactly like apps written against Apple's framework.
        .testTarget(
            name: "AppCompatibilityTests",
            dependencies: ["FoundationModels", "TestSupport"]
        ),
        // The same app code (AppCompatibilityTests' AppCode, Models and a
        // few of its test files, linked into these folders) built as Xcode
        // builds apps today: default main-actor isolation with approachable
        // concurrency, in Swift 6 and in Swift 5 mode (a new Xcode project).
        .testTarget(
            name: "MainActorAppCompatibilityTests",
            dependencies: ["FoundationModels", "TestSupport"],
            swiftSettings: xcodeAppSettings
        ),
        .testTarget(
            name: "Swift5AppCompatibilityTests",
            dependencies: ["FoundationModels", "TestSupport"],
            swiftSettings: xcodeAppSettings + approachableInSwift5
        ),
        // A provider package's executor on the public API only (no
        // @testable): reasoning, metadata, tool calls, usage and errors.
        .testTarget(
            name: "ProviderTests",
            dependencies: ["FoundationModels"]
        ),
        // The module's interface against Apple's 27 declarations (Xcode 27
        // beta 5, apple27b5-declarations.tsv; beta 1's list kept as history); compiles the module's sources itself,
        // so it depends on the target only to have its dependencies built.
        .testTarget(
            name: "APICheckTests",
            dependencies: ["FoundationModels", "TestSupport"],
            exclude: ["apple27-declarations.tsv", "apple27b5-declarations.tsv", "apple27.2-declarations.tsv", "deviations.tsv", "additions.tsv"]
        ),
        // The constraint engine alone: no model, no llama.cpp.
        .testTarget(
            name: "GuidedGenerationTests",
            dependencies: [
                "GuidedGeneration",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // The corpora generator and the scorers (no model), and one short
        // run of a few items on the real default model.
        .testTarget(
            name: "FoundationModelsEvalTests",
            dependencies: [
                "FoundationModelsEval", "FoundationModels", "ReceiptExtraction", "TicketTriage", "Flashcards", "VinylCollection", "CoachingReport",
                "TestSupport",
            ]
        ),
        // The server models (Sources/FoundationModels/Models/Remote): a real
        // llama-server on 127.0.0.1 (started by the tests, with
        // FoundationModelsEval's LlamaServer), loopback stubs for faults and
        // for Anthropic's wire format; the router (FoundationModelsTiers)
        // only as the reader of their errors.
        .testTarget(
            name: "RemoteModelTests",
            dependencies: ["FoundationModels", "FoundationModelsTiers", "FoundationModelsEval", "TestSupport"]
        ),
        // The tiers (Sources/FoundationModelsTiers) as one model, over loopback stubs.
        .testTarget(
            name: "FoundationModelsTiersTests",
            dependencies: ["FoundationModels", "FoundationModelsTiers", "TestSupport"]
        ),
        // fm serve in process (HummingbirdTesting's router, no port) over a
        // scripted model: every 4xx, the key, the limits, the SSE framing;
        // and the wire formats and bookkeeping that need no model at all.
        .testTarget(
            name: "FoundationModelsServerTests",
            dependencies: [
                "FoundationModels",
                "FoundationModelsServer",
                "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // llama.cpp through LlamaKit, on the small model.
        .testTarget(
            name: "LlamaKitTests",
            dependencies: ["LlamaKit", "TestSupport"]
        ),
        .testTarget(
            name: "ChildProcessTests",
            dependencies: ["ChildProcess"]
        ),
        .testTarget(
            name: "FoundationModelsKitTests",
            dependencies: ["FoundationModelsKit", "FoundationModels"]
        ),
        .testTarget(
            name: "FoundationModelsMacrosTests",
            dependencies: [
                "FoundationModelsMacroExpansions",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
    ]
        // The programs mark each answer with the eval's scorers (complete,
        // right, cut short, wrong), and the quality tests assert them.
        + example(
            "VinylCollection", program: "vinyl-collection",
            demoDependencies: ["FoundationModelsEval"], testDependencies: ["FoundationModelsEval"]
        )
        + example(
            "ReceiptExtraction", program: "receipt-extraction",
            demoDependencies: ["FoundationModelsEval"], testDependencies: ["FoundationModelsEval"]
        )
        + example(
            "Flashcards", program: "flashcards",
            demoDependencies: ["FoundationModelsEval"], testDependencies: ["FoundationModelsEval"]
        )
        + example(
            "CoachingReport", program: "coaching-report",
            dependencies: [.product(name: "Yams", package: "Yams")],
            resources: [.copy("coaching.yaml")],
            demoDependencies: ["FoundationModelsEval"], testDependencies: ["FoundationModelsEval"]
        )
        + example(
            "TicketTriage", program: "ticket-triage",
            dependencies: ["FoundationModelsTiers"],
            demoDependencies: ["FoundationModelsEval"],
            testDependencies: ["FoundationModelsTiers", "FoundationModelsEval"]
        )
)

// `make fuzz` only (FOUNDATION_MODELS_FUZZ=1, its own scratch path): the
// libFuzzer driver over the parsers of untrusted input (docs/ARCHITECTURE.md),
// with the modules it reads instrumented for coverage and AddressSanitizer.
// Without the variable the package is the one above: `swift build` and
// `make test` never see these flags.
if Context.environment["FOUNDATION_MODELS_FUZZ"] == "1" {
    let instrumented: [SwiftSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]
    for target in package.targets where ["FoundationModels", "GuidedGeneration", "LlamaKit"].contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + instrumented
    }
    // The driver has its own `main` (it picks the target from its first
    // argument), so it links libFuzzer without libFuzzer's `main`: the
    // runtime's folder comes from the Makefile (FOUNDATION_MODELS_FUZZ_RUNTIME).
    let runtime = Context.environment["FOUNDATION_MODELS_FUZZ_RUNTIME"] ?? ""
    package.targets.append(
        .executableTarget(
            name: "fm-fuzz",
            dependencies: ["FoundationModels", "GuidedGeneration", "LlamaKit"],
            path: "Fuzz/Sources",
            swiftSettings: instrumented + [.enableExperimentalFeature("Extern")],
            linkerSettings: [
                .unsafeFlags([
                    "-sanitize=address", "-Xlinker", "\(runtime)/libclang_rt.fuzzer_no_main-x86_64.a", "-lstdc++",
                ])
            ]
        ))
    package.products.append(.executable(name: "fm-fuzz", targets: ["fm-fuzz"]))
}
