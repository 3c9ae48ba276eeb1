import Foundation

// What the server models share besides HTTP: reading and writing wire JSON
// with the module's own order-keeping parser and printer, the text of
// transcript segments, and the failures of a request expressed in the error
// family a model surfaces.

/// Wire JSON, read and built as ``GeneratedContent`` (the module's one JSON
/// parser and printer): objects keep their key order, so a schema sent to a
/// server lists its properties in generation order.
package enum WireJSON {
    /// An object with keys in the given order; `nil` values are left out.
    package static func object(_ pairs: [(String, GeneratedContent?)]) -> GeneratedContent {
        var properties: [String: GeneratedContent] = [:]
        var keys: [String] = []
        for (key, value) in pairs {
            guard let value else { continue }
            if properties.updateValue(value, forKey: key) == nil { keys.append(key) }
        }
        return GeneratedContent(kind: .structure(properties: properties, orderedKeys: keys))
    }

    package static func array(_ elements: [GeneratedContent]) -> GeneratedContent {
        GeneratedContent(kind: .array(elements))
    }

    package static func string(_ value: String) -> GeneratedContent {
        GeneratedContent(kind: .string(value))
    }

    package static func number(_ value: Double) -> GeneratedContent {
        GeneratedContent(kind: .number(value))
    }

    package static func number(_ value: Int) -> GeneratedContent {
        GeneratedContent(kind: .number(Double(value)))
    }

    package static func bool(_ value: Bool) -> GeneratedContent {
        GeneratedContent(kind: .bool(value))
    }
}

extension GeneratedContent {
    /// The value of `key` when this is an object.
    package subscript(wire key: String) -> GeneratedContent? {
        guard case .structure(let properties, _) = kind else { return nil }
        return properties[key]
    }

    /// The string, when this is one.
    package var wireString: String? {
        if case .string(let value) = kind { return value }
        return nil
    }

    /// The number as an integer, when this is a whole number.
    package var wireInt: Int? {
        guard case .number(let value) = kind, value == value.rounded(), abs(value) < 9e15 else { return nil }
        return Int(value)
    }

    /// The elements, when this is an array.
    package var wireArray: [GeneratedContent]? {
        if case .array(let elements) = kind { return elements }
        return nil
    }

    /// Whether this is JSON `null`.
    package var isWireNull: Bool {
        if case .null = kind { return true }
        return false
    }
}

extension Transcript {
    /// The text a server reads for `segments`: text as written, structured
    /// content as compact JSON, attachments left out (the server models
    /// declare no vision).
    package static func wireText(_ segments: [Transcript.Segment]) -> String {
        segments.compactMap { segment -> String? in
            switch segment {
            case .text(let text): text.content
            case .structure(let structure): structure.content.jsonString
            default: nil
            }
        }.joined(separator: "\n")
    }
}

/// Which error family a server model's failures are surfaced in.
package enum RemoteErrorFamily: Sendable, Hashable {
    /// The seam's family: `LanguageModelError`, the system model's
    /// `assetsUnavailable` for a server that cannot serve, and
    /// `GeneratedContent.ParsingError`.
    case languageModel
    /// Private Cloud Compute's own errors for the network, the service
    /// and the quota; the seam's family for the rest.
    case privateCloudCompute

    /// The error to throw for `failure`. Never carries the API key: the
    /// messages come from the server's error body and our own text.
    package func error(for failure: ServerFailure) -> any Error {
        switch (self, failure) {
        case (.privateCloudCompute, .connection(let message)), (.privateCloudCompute, .timeout(let message)):
            return PrivateCloudComputeLanguageModel.Error.networkFailure(.init(debugDescription: message))
        case (.privateCloudCompute, .unavailable(let status, let message)), (.privateCloudCompute, .rejected(let status, let message)):
            return PrivateCloudComputeLanguageModel.Error.serviceUnavailable(.init(debugDescription: "HTTP \(status): \(message)"))
        case (.privateCloudCompute, .rateLimited(let resetDate, let message)):
            return PrivateCloudComputeLanguageModel.Error.quotaLimitReached(.init(resetDate: resetDate, debugDescription: message))
        case (_, .connection(let message)), (_, .timeout(let message)):
            return SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: "The model server cannot serve: \(message)"))
        case (_, .unavailable(let status, let message)), (_, .rejected(let status, let message)):
            return SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: "The model server answered HTTP \(status): \(message)"))
        case (_, .rateLimited(let resetDate, let message)):
            return LanguageModelError.rateLimited(.init(resetDate: resetDate, debugDescription: message))
        case (_, .contextLength(let contextSize, let tokenCount, let message)):
            return LanguageModelError.contextSizeExceeded(
                .init(contextSize: contextSize ?? 0, tokenCount: tokenCount ?? 0, debugDescription: message))
        case (_, .contentFilter(let message)):
            return LanguageModelError.guardrailViolation(.init(debugDescription: message))
        case (_, .refusal(let explanation)):
            return LanguageModelError.refusal(.init(explanation: explanation, debugDescription: explanation))
        case (_, .malformed(let rawContent, let message)):
            return GeneratedContent.ParsingError(rawContent: rawContent, debugDescription: message)
        }
    }
}

/// Checks a structured answer against the request's schema before the
/// session sees its end: the executor has streamed the text, and a value
/// that breaks the schema fails the request with `decodingFailure`
/// (`GeneratedContent.ParsingError`) instead of reaching the caller.
package enum RemoteAnswerCheck {
    package static func validate(_ text: String, schema: GenerationSchema?) throws(ServerFailure) {
        guard let schema else { return }
        let content: GeneratedContent
        do {
            content = try GeneratedContent(json: text)
        } catch {
            throw .malformed(rawContent: text, message: "The server's answer is not valid JSON: \(error)")
        }
        guard content.isComplete else {
            throw .malformed(rawContent: text, message: "The server's answer ended before the value was complete.")
        }
        do {
            try SchemaConformance.validate(content, against: schema)
        } catch {
            throw .malformed(rawContent: text, message: "The server's answer does not follow the schema \(schema.name): \(error)")
        }
    }

    /// Refuses, before anything is sent, a schema the matcher cannot
    /// enforce: the answer could not be checked.
    package static func preflight(_ schema: GenerationSchema?) throws {
        guard let schema else { return }
        do {
            try SchemaConformance.check(schema)
        } catch {
            throw LanguageModelError.unsupportedGenerationGuide(
                .init(
                    schemaName: schema.name,
                    debugDescription: "\(schema.name) cannot be checked against its schema: \(error)"
                ))
        }
    }
}
