@_exported import ChildProcess
import Foundation
import FoundationModels
import Testing

// What a test needs from the machine, said where the test is declared, so
// that plain `swift test` passes on its own: a test whose need is absent is
// skipped with the reason and the command that meets it. `make test` runs
// the package several times, each run meeting a different set of needs
// (scripts/test-tagged.sh selects a run's tests by their tags, so a need
// implies its tag: ``Need/tags``, checked for every test).

extension Tag {
    /// Loads a model: into this process, or into a server the test starts.
    @Tag public static var model: Tag
    /// Judges the answers of the installed default model (Qwen2.5-Coder-1.5B):
    /// the thresholds are that model's.
    @Tag public static var defaultModel: Tag
    /// Starts llama-server.
    @Tag public static var llamaServer: Tag
    /// Measures time or memory, so it runs with nothing else in the process.
    @Tag public static var timing: Tag
    /// An app on a machine where the model is not installed.
    @Tag public static var noModel: Tag
    /// Runs llama.cpp on a GPU.
    @Tag public static var gpu: Tag
    /// Tests code behind the `DataAttachments` trait (off by default), so
    /// `make test` runs it in its own build with the trait on.
    @Tag public static var dataAttachments: Tag
}

/// Something a test needs that a machine or a run may lack.
public enum Need: Sendable, Hashable {
    /// The file `SystemLanguageModel.default` loads is there.
    case model
    /// The small model (SmolLM2-135M), whose shape LlamaKit's tests assert.
    case smallModel
    /// The fast model (Qwen2.5-Coder-0.5B).
    case fastModel
    /// `SystemLanguageModel.default` is the installed default model, whose
    /// answers the test judges.
    case defaultModel
    /// `SystemLanguageModel.default` has no model file: the test describes an
    /// app on a machine without it.
    case noModel
    /// A llama-server executable (``TestMachine/llamaServer``).
    case llamaServer
    /// Tesseract's `tesseract` command on `PATH` (photos of receipts).
    case tesseract
    /// Nothing else runs in the process: the run says so with
    /// `FOUNDATION_MODELS_TEST_ALONE=1`.
    case runAlone

    /// Whether the test loads a model or starts a server that does: such
    /// tests run one at a time in the process (``ModelWork``).
    var isModelWork: Bool {
        switch self {
        case .model, .smallModel, .fastModel, .defaultModel, .llamaServer, .runAlone: true
        case .noModel, .tesseract: false
        }
    }

    /// The tags a test with this need carries, one of them at least: the
    /// run of `make test` that meets the need selects its tests by these
    /// (scripts/test.sh), so a test needing the default model but not
    /// tagged `defaultModel` would be skipped in every run. Model work
    /// (`model`, `smallModel`, `fastModel`) runs in the main run, where the
    /// tag says what a test does; GPU, timing and default-model tests load
    /// a model in their own runs.
    var tags: Set<Tag> {
        switch self {
        case .model, .smallModel, .fastModel: [.model, .gpu, .timing, .defaultModel]
        case .defaultModel: [.defaultModel]
        case .noModel: [.noModel]
        case .llamaServer: [.llamaServer]
        case .runAlone: [.timing]
        case .tesseract: []
        }
    }

    /// Why the need is not met here, and how to meet it; nil when it is met.
    var absence: String? {
        let files = FileManager.default
        switch self {
        case .model:
            let path = TestMachine.systemModel
            return files.fileExists(atPath: path)
                ? nil
                : "needs a model: SystemLanguageModel.default loads \(path), which is not there (`make setup` installs it; FOUNDATION_MODELS_MODEL names another)"
        case .smallModel:
            return files.fileExists(atPath: TestMachine.smallModel)
                ? nil
                : "needs the small model at \(TestMachine.smallModel) (`make setup` installs it; FOUNDATION_MODELS_SMALL_MODEL names another copy)"
        case .fastModel:
            return files.fileExists(atPath: TestMachine.fastModel)
                ? nil
                : "needs the fast model at \(TestMachine.fastModel) (`make setup` installs it)"
        case .defaultModel:
            let path = TestMachine.systemModel
            let installed = TestMachine.defaultModel
            if (path as NSString).lastPathComponent != (installed as NSString).lastPathComponent {
                return
                    "judges the default model's answers, and SystemLanguageModel.default loads \(path): run with FOUNDATION_MODELS_MODEL unset or set to \(installed) (`make test` does)"
            }
            return files.fileExists(atPath: path)
                ? nil
                : "judges the default model's answers, and \(path) is not there (`make setup` installs it)"
        case .noModel:
            let path = TestMachine.systemModel
            return files.fileExists(atPath: path)
                ? "describes an app on a machine without the model, and \(path) is installed: run with FOUNDATION_MODELS_MODEL=/nonexistent/not-downloaded.gguf (`make test` does)"
                : nil
        case .llamaServer:
            return TestMachine.llamaServer == nil
                ? "needs llama-server: LLAMA_SERVER, or bin/llama-server of the llama.cpp pkg-config finds (`make setup` builds it)"
                : nil
        case .tesseract:
            let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
            let found = path.split(separator: ":").contains { files.isExecutableFile(atPath: "\($0)/tesseract") }
            return found ? nil : "needs Tesseract's tesseract command on PATH (`make setup` installs Debian's tesseract-ocr)"
        case .runAlone:
            return ProcessInfo.processInfo.environment["FOUNDATION_MODELS_TEST_ALONE"] == "1"
                ? nil
                : "measures time and memory, so it runs only alone: FOUNDATION_MODELS_TEST_ALONE=1 with a --filter for it (`make test` runs it so)"
        }
    }
}

/// The trait that declares a test's needs: the test (or every test of the
/// suite) is skipped, with the reason, where one is absent, and tests that
/// load a model run one at a time in the process, whichever suite or target
/// they belong to: two llama.cpp workloads on the same cores slow each other
/// many times over, and a test that checks the KV cache must not have its
/// context taken by another test's request.
public struct Needs: TestTrait, SuiteTrait, TestScoping {
    public let needs: [Need]

    public var isRecursive: Bool { true }

    public func prepare(for test: Test) async throws {
        let untagged = needs.filter { !$0.tags.isEmpty && $0.tags.isDisjoint(with: test.tags) }
        if !untagged.isEmpty {
            throw NeedWithoutTag(
                description:
                    "\(test.name) needs \(untagged.map { ".\($0)" }.joined(separator: ", ")) without a tag that selects it in make test: add .tags(\(untagged.map { $0.tags.map { "\($0)" }.sorted().joined(separator: " or ") }.joined(separator: "; ")))"
            )
        }
        let absent = needs.compactMap(\.absence)
        try await ConditionTrait.enabled(if: absent.isEmpty, Comment(rawValue: absent.joined(separator: "; ")))
            .prepare(for: test)
    }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Needs? {
        testCase != nil && needs.contains(where: \.isModelWork) ? self : nil
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await ModelWork.exclusively(function)
    }
}

/// A test declares a need without the tag that puts it in the run of
/// `make test` that meets it (``Need/tags``).
struct NeedWithoutTag: Error, CustomStringConvertible {
    let description: String
}

extension Trait where Self == Needs {
    /// The test needs all of `needs` (see ``Need``).
    public static func needs(_ needs: Need...) -> Self { Needs(needs: needs) }
}

/// One model-loading test at a time in the process (see ``Needs``).
public enum ModelWork {
    @TaskLocal static var isHeld = false

    /// Runs `body` once no other model-loading test runs; nested uses (a
    /// suite's need and its test's) take the turn once.
    public static func exclusively(_ body: @Sendable () async throws -> Void) async throws {
        if isHeld { return try await body() }
        await turns.wait()
        do {
            try await $isHeld.withValue(true) { try await body() }
        } catch {
            await turns.signal()
            throw error
        }
        await turns.signal()
    }

    private static let turns = Turns()

    /// A first-come, first-served lock for async code.
    private actor Turns {
        private var isTaken = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func wait() async {
            guard isTaken else {
                isTaken = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func signal() {
            if waiting.isEmpty {
                isTaken = false
            } else {
                waiting.removeFirst().resume()
            }
        }
    }
}

/// Where the files and programs the tests need are on this machine: the
/// variables `env.sh` exports where set, else where `make setup` installs them.
public enum TestMachine {
    /// The file `SystemLanguageModel.default` loads.
    public static var systemModel: String { SystemLanguageModel.Configuration.default.modelPath }

    /// The installed default model (Qwen2.5-Coder-1.5B).
    public static var defaultModel: String {
        variable("FOUNDATION_MODELS_DEFAULT_MODEL") ?? SystemLanguageModel.Configuration.installedDefaultModelFile.path
    }

    /// The installed fast model (Qwen2.5-Coder-0.5B).
    public static var fastModel: String {
        variable("FOUNDATION_MODELS_FAST_MODEL") ?? SystemLanguageModel.Configuration.installedFastModelFile.path
    }

    /// The small model (SmolLM2-135M-Instruct, Q4_1) `make setup` installs
    /// beside the others for the tests.
    public static var smallModel: String {
        variable("FOUNDATION_MODELS_SMALL_MODEL")
            ?? SystemLanguageModel.Configuration.installedDefaultModelFile
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53")
            .appendingPathComponent("SmolLM2-135M-Instruct.Q4_1.gguf").path
    }

    /// The install prefix of the llama.cpp the package builds against:
    /// `LLAMA_PREFIX`, else what pkg-config says (setup's build keeps the
    /// pinned source, with its gguf-py, beside it in `../src`).
    public static let llamaPrefix: String? = variable("LLAMA_PREFIX") ?? pkgConfigPrefix()

    /// llama-server: `LLAMA_SERVER`, else `bin/llama-server` under ``llamaPrefix``.
    public static let llamaServer: String? = {
        let candidate = variable("LLAMA_SERVER") ?? llamaPrefix.map { $0 + "/bin/llama-server" }
        return candidate.flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
    }()

    private static func variable(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func pkgConfigPrefix() -> String? {
        guard let ran = try? run(["pkg-config", "--variable=prefix", "llama"]), ran.status == 0 else { return nil }
        let prefix = ran.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return prefix.isEmpty ? nil : prefix
    }

    /// The package's folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `command` (its program found on PATH) to the end: its exit
    /// status and its output, standard error included (in
    /// `standardOutput`, in the order written).
    package static func run(_ command: [String]) throws -> ChildProcess.Output {
        try ChildProcess.runBlocking(command, standardError: .intoOutput)
    }

    /// The package's executable `name`, built beside the test bundle
    /// (`swift build --build-tests` builds every product).
    public static func product(_ name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Runs `executable` with `arguments` to the end, in `directory` if
    /// given: its exit status, standard output and standard error apart
    /// (``ChildProcess``: no pipe to fill, so neither waits on the other).
    package static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil) throws -> ChildProcess.Output {
        try ChildProcess.runBlocking(executable, arguments, directory: directory)
    }

    /// The interpreter of one of the tests' pinned Python environments
    /// (`scripts/openai_env.sh`, `scripts/gguf_env.sh`), made on first use.
    public static func python(environment script: String) throws -> String {
        let ran = try run(["bash", packageRoot.appendingPathComponent("scripts/\(script)").path])
        guard ran.status == 0, let path = ran.standardOutput.split(separator: "\n").last.map(String.init) else {
            throw PythonEnvironmentError(description: "scripts/\(script) failed: \(ran.standardOutput)")
        }
        return path
    }

    struct PythonEnvironmentError: Error, CustomStringConvertible { var description: String }
}
