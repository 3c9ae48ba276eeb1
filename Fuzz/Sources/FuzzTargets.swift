import Foundation
import LlamaKit

@testable import FoundationModels
@testable import GuidedGeneration

/// One fuzz target: bytes in, nothing out. Bad input must end in a thrown
/// error; a crash, a sanitizer report, a hang or a broken property (checked
/// with `precondition`, so libFuzzer saves the input) is a finding.
struct FuzzTarget: Sendable {
    let name: String
    let run: @Sendable (UnsafeBufferPointer<UInt8>) -> Void
}

enum FuzzTargets {
    nonisolated(unsafe) static var selected: FuzzTarget?

    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    static let all = [json, partialJSON, jsonSchema, regex, gguf]

    /// The JSON parser (`GeneratedContent(json:)`) on whole documents: what
    /// it accepts as complete prints as JSON that parses back and prints the
    /// same.
    static let json = FuzzTarget(name: "json") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        guard let content = try? GeneratedContent(json: text), content.isComplete else { return }
        let printed = content.jsonString
        guard let again = try? GeneratedContent(json: printed) else {
            preconditionFailure("the printed form of \(text.debugDescription) does not parse: \(printed.debugDescription)")
        }
        precondition(again.jsonString == printed, "printing is not stable: \(printed.debugDescription) -> \(again.jsonString.debugDescription)")
    }

    /// The same parser on text as a model streams it: every prefix of
    /// accepted input is accepted too (a stream is parsed at every token),
    /// and what an unfinished prefix gives prints as complete JSON.
    static let partialJSON = FuzzTarget(name: "partial-json") { bytes in
        let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        guard (try? GeneratedContent(json: String(text))) != nil else { return }
        // Every prefix of short input; about 64 of long input.
        let step = max(1, scalars.count / 64)
        for length in stride(from: 0, to: scalars.count, by: step) {
            var prefix = String.UnicodeScalarView()
            prefix.append(contentsOf: scalars[..<length])
            let partial: GeneratedContent
            do {
                partial = try GeneratedContent(json: String(prefix))
            } catch {
                preconditionFailure("\(String(text).debugDescription) parses but its prefix \(String(prefix).debugDescription) does not: \(error)")
            }
            let printed = partial.jsonString
            guard let reread = try? GeneratedContent(json: printed), reread.isComplete else {
                preconditionFailure("the prefix \(String(prefix).debugDescription) prints as \(printed.debugDescription), not complete JSON")
            }
        }
    }

    /// The JSON Schema reader (`GenerationSchema`'s Codable form): what it
    /// reads, the writer writes back in a form it reads again.
    static let jsonSchema = FuzzTarget(name: "json-schema") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        guard let document = try? GeneratedContent(json: text), document.isComplete,
            let schema = try? GenerationSchema(jsonSchema: document)
        else { return }
        let written = schema.jsonSchema
        do {
            _ = try GenerationSchema(jsonSchema: written)
        } catch {
            preconditionFailure("the reader refuses what the writer wrote for \(text.debugDescription): \(error)\n\(written.jsonString)")
        }
    }

    /// The regular-expression pattern parser and the automaton built from
    /// it, in both of its readings (whole string, JSON Schema's search).
    static let regex = FuzzTarget(name: "regex") { bytes in
        let pattern = String(decoding: bytes, as: UTF8.self)
        _ = try? ByteDFA.jsonString(matching: pattern)
        _ = try? ByteDFA.jsonString(matching: pattern, search: true)
    }

    /// The GGUF header check and metadata reader, on the bytes as a file.
    static let gguf = FuzzTarget(name: "gguf") { bytes in
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fm-fuzz-\(getpid()).gguf").path
        guard FileManager.default.createFile(atPath: path, contents: Data(buffer: bytes)) else {
            preconditionFailure("cannot write \(path)")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try? GGUFFile.metadata(path: path)
    }
}
