import Foundation
import Yams

/// A prompt with `{name}` placeholders, filled from the input.
///
/// Exists so a prompt's wording lives in a file a writer edits (and a
/// reviewer diffs) rather than in string interpolation scattered through
/// code, while a value the wording expects but the code forgot is an error
/// that names it, not a prompt with a literal `{goal}` in it sent to the
/// model. A placeholder is a name of letters, digits and underscores in
/// braces; any other brace is text.
public struct PromptTemplate: Sendable, Equatable {
    /// The template's name in its file, for error messages.
    public let name: String
    public let text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }

    /// The placeholders the text names, in order of first use.
    public var placeholders: [String] {
        var seen = Set<String>()
        return pieces.compactMap { if case .placeholder(let name) = $0, seen.insert(name).inserted { name } else { nil } }
    }

    /// The text with every placeholder replaced by its value.
    ///
    /// - Throws: ``PromptTemplateError/missingPlaceholder(_:template:)`` for
    ///   the first placeholder `values` has no value for. Values the text
    ///   does not name are ignored (one input fills several templates).
    public func filled(_ values: [String: String]) throws(PromptTemplateError) -> String {
        var result = ""
        for piece in pieces {
            switch piece {
            case .text(let text): result += text
            case .placeholder(let key):
                guard let value = values[key] else { throw .missingPlaceholder(key, template: name) }
                result += value
            }
        }
        return result
    }

    private enum Piece { case text(Substring), placeholder(String) }

    private var pieces: [Piece] {
        var pieces: [Piece] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest.index(after: open)
            let name = rest[afterOpen...].prefix { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            guard !name.isEmpty, name.endIndex < rest.endIndex, rest[name.endIndex] == "}" else {
                // Not a placeholder: the brace is text.
                pieces.append(.text(rest[...open]))
                rest = rest[afterOpen...]
                continue
            }
            pieces.append(.text(rest[..<open]))
            pieces.append(.placeholder(String(name)))
            rest = rest[rest.index(after: name.endIndex)...]
        }
        pieces.append(.text(rest))
        return pieces
    }
}

/// Why a template file could not be used.
public enum PromptTemplateError: Error, Equatable, CustomStringConvertible {
    /// The template names a placeholder the input has no value for.
    case missingPlaceholder(String, template: String)
    /// The file is not YAML of the expected shape (the decoder's reason).
    case invalidFile(String)
    /// The file has no template of this name.
    case missingTemplate(String)

    public var description: String {
        switch self {
        case .missingPlaceholder(let name, let template):
            "the prompt template \"\(template)\" uses {\(name)}, but no value was given for it"
        case .invalidFile(let reason): "the prompt template file is not valid: \(reason)"
        case .missingTemplate(let name): "the prompt template file has no template \"\(name)\""
        }
    }
}

/// The instructions and prompts of a feature, read from a YAML file of
/// named strings (`instructions:` and one key per prompt).
public struct PromptTemplates: Sendable, Equatable {
    public let instructions: PromptTemplate
    public let prompts: [String: PromptTemplate]

    /// Parses `yaml`: a mapping of names to strings, one of them `instructions`.
    public init(yaml: String) throws(PromptTemplateError) {
        let entries: [String: String]
        do {
            entries = try YAMLDecoder().decode([String: String].self, from: yaml)
        } catch {
            throw .invalidFile(Self.reason(error))
        }
        guard let instructions = entries["instructions"] else { throw .missingTemplate("instructions") }
        self.instructions = PromptTemplate(name: "instructions", text: instructions)
        prompts = Dictionary(
            uniqueKeysWithValues: entries.filter { $0.key != "instructions" }.map { ($0.key, PromptTemplate(name: $0.key, text: $0.value)) })
    }

    /// Reads and parses the file at `url`.
    public init(contentsOf url: URL) throws(PromptTemplateError) {
        let yaml: String
        do {
            yaml = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .invalidFile("\(url.path): \(error.localizedDescription)")
        }
        try self.init(yaml: yaml)
    }

    /// The prompt template named `name`.
    public func prompt(_ name: String) throws(PromptTemplateError) -> PromptTemplate {
        guard let template = prompts[name] else { throw .missingTemplate(name) }
        return template
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.keyNotFound(_, let context), DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
        default:
            return "\(error)"
        }
    }
}
