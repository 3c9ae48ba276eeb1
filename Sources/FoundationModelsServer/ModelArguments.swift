import Foundation
import FoundationModels

/// What `fm serve`'s `--model`, `--adapter` and `--alias` values ask for,
/// read apart from the program that loads the models, so that the rules
/// (names, bases, per-model options, what may be combined) are checked
/// without a model file.
///
/// One model keeps the command line it always had: `--model PATH`
/// (`--model-name`, an unnamed `--adapter FILE` applied to every answer).
/// Several are named: `--model NAME=PATH` (repeatable), `--adapter
/// NAME=FILE` served as a model of its own over the first model's weights
/// (`NAME@BASE=FILE` over another), each optionally followed by
/// `,context-size=N`, `,parallel=N`, `,max-queue=N`, `,schema-budget=N`,
/// `,tools-budget=N`; `--alias ALIAS=NAME`
/// for clients that hard-code a model name.
package struct ModelArguments: Sendable, Equatable {
    /// A model file, or an adapter over one of them.
    package struct Entry: Sendable, Equatable {
        package var name: String
        package var path: String
        /// For an adapter, the name of the model it applies to.
        package var base: String?
        package var contextSize: Int?
        package var parallelSequences: Int?
        package var maximumQueue: Int?
        /// The tokens a request's schema, and its tool list, may take in
        /// the prompt (``SystemLanguageModel/Configuration/schemaPromptTokenBudget``,
        /// ``SystemLanguageModel/Configuration/toolsPromptTokenBudget``).
        package var schemaBudget: Int?
        package var toolsBudget: Int?
    }

    /// The models to serve, in order (the first answers requests that name
    /// none), adapters after the models; empty for the one-model command line.
    package var entries: [Entry] = []
    /// Each alias and the model it names.
    package var aliases: [String: String] = [:]

    /// Whether the command line names its models (several, or any named):
    /// otherwise it is the one-model command line, served as before.
    package var isNamed: Bool { !entries.isEmpty }

    /// Why a value cannot be served, said as the command line's error.
    package struct Invalid: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// Reads the values. `modelName` is `--model-name`, which only the
    /// one-model command line takes.
    package init(models: [String], adapters: [String], aliases: [String], modelName: String?) throws(Invalid) {
        let named = models.count > 1 || models.contains { Self.split($0).name != nil } || adapters.contains { Self.split($0).name != nil }
        if named {
            if modelName != nil { throw Invalid(description: "--model-name names the one model: with several, name each as --model NAME=PATH") }
            for value in models {
                let (name, path, options) = try Self.entry(value, option: "--model")
                let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                entries.append(try Self.apply(options, to: Entry(name: name ?? stem, path: path), option: "--model"))
            }
            if entries.isEmpty { throw Invalid(description: "--adapter NAME=FILE applies to a model: give it with --model NAME=PATH") }
            let bases = entries.map(\.name)
            for value in adapters {
                let (label, path, options) = try Self.entry(value, option: "--adapter")
                guard let label else {
                    throw Invalid(description: "--adapter \(value): with several models, name each adapter (--adapter NAME=FILE, or NAME@BASE=FILE)")
                }
                let parts = label.split(separator: "@", maxSplits: 1).map(String.init)
                let base = parts.count == 2 ? parts[1] : bases[0]
                guard bases.contains(base) else {
                    throw Invalid(
                        description: "--adapter \(value): no model named '\(base)' to apply it to (the models: \(bases.joined(separator: ", ")))")
                }
                entries.append(try Self.apply(options, to: Entry(name: parts[0], path: path, base: base), option: "--adapter"))
            }
            var seen: Set<String> = []
            for entry in entries {
                guard Self.isName(entry.name) else {
                    throw Invalid(description: "'\(entry.name)' is not a model name: letters, digits, '.', '-', '_' and ':'")
                }
                guard seen.insert(entry.name).inserted else {
                    throw Invalid(description: "two models are named '\(entry.name)': name them apart (NAME=PATH)")
                }
            }
        } else if models.count > 1 || adapters.count > 1 {
            throw Invalid(
                description:
                    "one model takes one --adapter, applied to every answer; to serve adapters as models of their own, name them: --adapter NAME=FILE"
            )
        }
        for value in aliases {
            guard let cut = value.lastIndex(of: "="), cut != value.startIndex, value.index(after: cut) != value.endIndex else {
                throw Invalid(description: "--alias \(value): give it as ALIAS=NAME")
            }
            let alias = String(value[..<cut]), target = String(value[value.index(after: cut)...])
            guard self.aliases[alias] == nil, !entries.contains(where: { $0.name == alias }) else {
                throw Invalid(description: "--alias \(value): '\(alias)' already names a model")
            }
            self.aliases[alias] = target
        }
    }

    /// Checks every alias names a served model (`names`: one model's own name when unnamed).
    package func checkAliases(against names: [String]) throws(Invalid) {
        for (alias, target) in aliases.sorted(by: { $0.key < $1.key }) where !names.contains(target) {
            throw Invalid(description: "--alias \(alias)=\(target): no model is named '\(target)' (the models: \(names.joined(separator: ", ")))")
        }
        if let clash = aliases.keys.sorted().first(where: names.contains) {
            throw Invalid(description: "--alias \(clash): '\(clash)' already names a model")
        }
    }

    /// `NAME=REST` when the part before the first `=` can be a name (a
    /// name has no `/`), else just `REST`: a path.
    static func split(_ value: String) -> (name: String?, rest: String) {
        let head = value.split(separator: ",", maxSplits: 1).first.map(String.init) ?? value
        guard let cut = head.firstIndex(of: "=") else { return (nil, value) }
        let name = String(head[..<cut])
        guard !name.contains("/"), !name.isEmpty else { return (nil, value) }
        return (name, String(value[value.index(after: cut)...]))
    }

    static func entry(_ value: String, option: String) throws(Invalid) -> (name: String?, path: String, options: [Substring]) {
        let (name, rest) = split(value)
        let parts = rest.split(separator: ",", omittingEmptySubsequences: false)
        guard let path = parts.first, !path.isEmpty else { throw Invalid(description: "\(option) \(value): no file") }
        return (name, String(path), Array(parts.dropFirst()))
    }

    /// The options a model's value takes after its path.
    static let optionNames = "context-size, parallel, max-queue, schema-budget, tools-budget"

    static func apply(_ options: [Substring], to entry: Entry, option: String) throws(Invalid) -> Entry {
        var entry = entry
        for pair in options {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let number = Int(parts[1]) else {
                throw Invalid(description: "\(option) \(entry.name): '\(pair)' is not KEY=NUMBER (\(Self.optionNames))")
            }
            switch parts[0] {
            case "context-size" where number >= 64: entry.contextSize = number
            case "parallel" where number >= 1: entry.parallelSequences = number
            case "max-queue" where number >= 0: entry.maximumQueue = number
            case "schema-budget" where number >= 64: entry.schemaBudget = number
            case "tools-budget" where number >= 256: entry.toolsBudget = number
            case "context-size", "parallel", "max-queue", "schema-budget", "tools-budget":
                throw Invalid(
                    description:
                        "\(option) \(entry.name): \(pair) is out of range (context-size ≥ 64, parallel ≥ 1, max-queue ≥ 0, schema-budget ≥ 64, tools-budget ≥ 256)"
                )
            default:
                throw Invalid(description: "\(option) \(entry.name): unknown option '\(parts[0])' (\(Self.optionNames))")
            }
        }
        return entry
    }

    static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || ".-_:".unicodeScalars.contains($0) }
    }
}

extension ModelArguments {
    /// The in-process models the entries name, each loaded before the
    /// first client waits for it; the options not given per model are
    /// the command line's (`parallelSequences`…), else the configuration's
    /// defaults. An adapter runs over its base model's file with the
    /// base's configuration and its own options: the weights are
    /// memory-mapped once, its context (and KV cache) is its own, as an
    /// adapter changes every token's activations. A model whose file is
    /// not there is served unavailable (`GET /health` says why; its
    /// requests are 503s) rather than keeping the others from serving.
    /// - Throws: an adapter that does not fit its base (`compile(for:)`),
    ///   or a model that fails to load.
    package func load(
        parallelSequences: Int?, maximumQueue: Int?, contextSize: Int?, schemaBudget: Int? = nil, toolsBudget: Int? = nil
    ) async throws -> [ChatCompletionsServer.ServedModel] {
        var served: [ChatCompletionsServer.ServedModel] = []
        var bases: [String: SystemLanguageModel.Configuration] = [:]
        for entry in entries {
            var configuration = entry.base.flatMap { bases[$0] } ?? .default
            if entry.base == nil { configuration.modelPath = entry.path }
            // A model takes the command line's where it sets none; an
            // adapter starts from its base's, which already did.
            func option(_ own: Int?, _ commandLine: Int?) -> Int? { own ?? (entry.base == nil ? commandLine : nil) }
            if let parallel = option(entry.parallelSequences, parallelSequences) { configuration.parallelSequences = parallel }
            if let queue = option(entry.maximumQueue, maximumQueue) { configuration.maximumQueuedRequests = queue }
            if let size = option(entry.contextSize, contextSize) { configuration.contextSize = size }
            if let budget = option(entry.schemaBudget, schemaBudget) { configuration.schemaPromptTokenBudget = budget }
            if let budget = option(entry.toolsBudget, toolsBudget) { configuration.toolsPromptTokenBudget = budget }
            if entry.base == nil { bases[entry.name] = configuration }
            var model = SystemLanguageModel(configuration: configuration)
            if entry.base != nil, case .available = model.availability {
                let adapter = try SystemLanguageModel.Adapter(fileURL: URL(fileURLWithPath: entry.path))
                try await adapter.compile(for: configuration)
                model = SystemLanguageModel(adapter: adapter, configuration: configuration)
            }
            if case .available = model.availability { _ = try await model.tokenCount(for: "") }
            var one = ChatCompletionsServer.ServedModel(name: entry.name, model: model)
            one.base = entry.base
            one.contextSize = model.contextSize
            one.parallelSequences = configuration.parallelSequences
            one.maximumQueue = configuration.maximumQueuedRequests
            one.occupancy = { [model] in model.occupancy }
            one.unavailability = { [model, path = configuration.modelPath] in
                switch model.availability {
                case .available: nil
                case .unavailable(let reason): "\(reason): \(path)"
                }
            }
            served.append(one)
        }
        return served
    }
}
