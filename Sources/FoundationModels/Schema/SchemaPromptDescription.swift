import GuidedGeneration

/// A schema described for the model, in the prompt.
///
/// Exists because constrained decoding decides only what the model *may*
/// write; the model still has to know what each field is for. This is what
/// `includeSchemaInPrompt` adds: a short, line-per-field description (names,
/// descriptions, guides) that a small model reads more reliably than JSON
/// Schema, and that costs far fewer tokens.
extension GenerationSchema {
    /// The description in the standard style (``SchemaPromptStyle/standard``);
    /// the in-process model uses its configuration's.
    package var promptDescription: String {
        promptDescription(style: .standard)
    }

    package func promptDescription(style: SchemaPromptStyle) -> String {
        switch style {
        case .fieldLines: fieldLinesDescription(detail: .full)
        case .typeScript: SchemaTypeScriptWriter.describe(self)
        case .jsonSchema: "Respond with JSON only, no other text, following this JSON Schema:\n" + jsonSchema.jsonString
        }
    }

    /// A shorter description, one field a line, for a schema whose
    /// description in full would crowd the context (see ``SchemaPromptDetail``).
    /// ``SchemaPromptDetail/bounded`` here takes
    /// ``SchemaPromptDetail/standardTokenBudget`` tokens at about four bytes
    /// a token; the model counts its own (``promptDescription(style:budget:tokenCount:)``).
    package func promptDescription(detail: SchemaPromptDetail) -> String {
        guard detail != .bounded else {
            return boundedPromptDescription(budget: SchemaPromptDetail.standardTokenBudget) { ($0.utf8.count + 3) / 4 }
        }
        return fieldLinesDescription(detail: detail)
    }

    /// The most tokens a schema's whole description, one field a line, may
    /// take before its descriptions are cut to their first sentence (a
    /// description of one sentence is whole either way). Measured on the
    /// default model (the receipts with a documented schema, `make eval`'s
    /// schema-detail runs; docs/GUIDED_GENERATION.md): the sentences after
    /// the first took all four values from 18 to 15 of 24 right and doubled
    /// the time to an answer (786 prompt tokens against 410; 20.1 s against
    /// 10.2 s on 2 cores); names and types alone kept 18. The limit lies
    /// above the whole description of every example's type and below that
    /// of the documented receipt (about 470 tokens). The TypeScript and JSON
    /// Schema renderings, chosen for measurements, were not measured so and
    /// are kept whole while they fit the budget.
    package static let wholeDescriptionTokenLimit = 256

    /// The description in `style` while it takes at most `budget` tokens
    /// (and, one field a line, ``wholeDescriptionTokenLimit``), as
    /// `tokenCount` counts them; past that, the first shorter one that fits `budget` (descriptions
    /// cut to a sentence, then names and types alone), and past those the
    /// bounded one, which fits any budget (``SchemaPromptDetail/bounded``).
    /// The decoder enforces the schema either way: a large schema's
    /// description must not take the room, or the time, its answer needs.
    package func promptDescription(style: SchemaPromptStyle, budget: Int, tokenCount: (String) -> Int) -> String {
        promptRendering(style: style, budget: budget, tokenCount: tokenCount).text
    }

    /// ``promptDescription(style:budget:tokenCount:)`` and the detail it
    /// chose (nil: the whole description in `style`), for reports of what
    /// is sent (`fm tokens --schema`).
    package func promptRendering(
        style: SchemaPromptStyle, budget: Int, tokenCount: (String) -> Int
    ) -> (text: String, detail: SchemaPromptDetail?) {
        // (A token is at least one byte: a short text fits uncounted.)
        func fits(_ text: String, _ budget: Int) -> Bool { text.utf8.count <= budget || tokenCount(text) <= budget }
        let full = promptDescription(style: style)
        if fits(full, style == .fieldLines ? min(budget, Self.wholeDescriptionTokenLimit) : budget) { return (full, nil) }
        for detail in [SchemaPromptDetail.brief, .outline] {
            let shorter = promptDescription(detail: detail)
            if fits(shorter, budget) { return (shorter, detail) }
        }
        return (boundedPromptDescription(budget: budget, tokenCount: tokenCount), .bounded)
    }

    /// The root is described without its type's name: a model that reads
    /// "ParsedFuelReceipt" just before it answers starts its first string
    /// with "P" (measured: the station brand right on 3 of 24 receipts with
    /// the name, 16 without).
    private func fieldLinesDescription(detail: SchemaPromptDetail) -> String {
        var lines = ["Respond with JSON only, no other text, in this shape:"]
        lines += SchemaPromptWriter.describe(root, description: typeDescription, named: nil, detail: detail)
        for definition in definitions where definition.name != name || !isNamedType {
            lines += SchemaPromptWriter.describe(definition.node, description: definition.description, named: definition.name, detail: detail)
        }
        return lines.joined(separator: "\n")
    }
}

/// How much of a schema the prompt describes. The decoder enforces the
/// whole schema whatever the prompt says; the description is what tells
/// the model what each field is for, and a large schema's (a Kubernetes
/// object, a SchemaStore file) can outgrow the context it shares with the
/// conversation and the answer, or take longer to read than the answer
/// takes to write.
package enum SchemaPromptDetail: String, CaseIterable, Sendable {
    /// Every field with its description and guides.
    case full
    /// Descriptions cut to their first sentence, at most 80 characters.
    case brief
    /// Field names and types alone; long choice lists shortened.
    case outline
    /// What fits a token budget, whatever the schema's size: the top-level
    /// fields first, then short descriptions, definitions and nested
    /// objects as far as the budget allows
    /// (``GenerationSchema/boundedPromptDescription(budget:tokenCount:)``).
    case bounded

    /// The tokens a response schema's description may take in the prompt
    /// unless a model is configured otherwise
    /// (``SystemLanguageModel/Configuration/schemaPromptTokenBudget``).
    ///
    /// Every answer schema of the eval's corpora is described as it was
    /// with half the context as the budget (SchemaBudgetCorpusTests, the
    /// default model's tokenizer: the largest whole description, the
    /// documented receipt's, is 467 tokens, sent brief at 91; coaching's
    /// 262; the rest 24 to 144), so they lose nothing. A real-world schema
    /// past it is sent in at most this many: of MaskBench's readable
    /// schemas over 15 KB, 181 describe to more than 8,000 tokens whole
    /// (the Washington Post's `wp_0` 12,968, Kubernetes' `kb_484` 31,226,
    /// more than its answer leaves room for) and every one is sent within
    /// 1,024 (`fm tokens --schema`). On 2 cores shared with other work,
    /// `wp_0`'s prompt of 1,026 tokens took about 38 s to read (a repeated
    /// request, reading 1 token, answered that much sooner); the decoder
    /// enforces the rest.
    package static let standardTokenBudget = 1024
}

/// Writes the lines of ``GenerationSchema/promptDescription``.
enum SchemaPromptWriter {
    static func describe(_ node: SchemaNode, description: String?, named name: String?, detail: SchemaPromptDetail = .full) -> [String] {
        let description = Self.shortened(description, detail)
        guard case .object(let object) = node, !object.properties.isEmpty else {
            let header = (name.map { "\($0): " } ?? "") + summary(of: node) + (description.map { ". \($0)" } ?? "")
            return [header]
        }
        let opening = (name == nil ? "An object" : "an object") + (description.map { " (\(Self.lowercasingFirst($0)))" } ?? "")
        var lines = [
            (name.map { "\($0): " } ?? "") + opening + " with these fields, in this order"
                + (object.requiresAProperty ? ", at least one of them" : "") + ":"
        ]
        for property in object.properties {
            var line = "  \"\(property.name)\"" + (property.isOptional ? " (optional)" : "") + ": " + summary(of: property.node, detail: detail)
            if let text = Self.shortened(property.description, detail) { line += ". \(text)" }
            lines.append(line)
        }
        if let extras = extraKeys(of: object, detail: detail) { lines.append("  then " + extras) }
        return lines
    }

    /// A description at `detail`: whole, its first sentence (at most 80
    /// characters), or none.
    static func shortened(_ description: String?, _ detail: SchemaPromptDetail) -> String? {
        guard let description else { return nil }
        switch detail {
        case .full: return description
        case .outline: return nil
        case .brief, .bounded:
            var sentence = description.prefix { $0 != "\n" }
            if let end = sentence.range(of: ". ") { sentence = sentence[..<end.lowerBound] }
            if sentence.count > 80 { return String(sentence.prefix(79)) + "…" }
            return String(sentence)
        }
    }

    /// "Values read from a receipt" as it reads inside a sentence; an
    /// initialism ("OCR rows") keeps its capitals.
    static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first, first.isUppercase else { return text }
        let second = text.dropFirst().first
        if let second, second.isUppercase { return text }
        return first.lowercased() + text.dropFirst()
    }

    static func summary(of node: SchemaNode, detail: SchemaPromptDetail = .full) -> String {
        switch node {
        case .object(let object):
            let extras = extraKeys(of: object, detail: detail)
            if object.properties.isEmpty { return extras.map { "an object of " + $0 } ?? "an empty object" }
            let fields = object.properties.map { "\"\($0.name)\"" + ($0.isOptional ? "?" : "") + ": " + summary(of: $0.node, detail: detail) }
            return "{" + fields.joined(separator: ", ") + "}" + (extras.map { " and " + $0 } ?? "")
        case .string(let string):
            if let constant = string.constant { return "the string \(quoted(constant))" }
            if let choices = string.choices {
                if detail == .outline, choices.count > 8 {
                    return "one of " + choices.prefix(6).map(quoted).joined(separator: ", ") + ", … (\(choices.count) in all)"
                }
                return "one of " + choices.map(quoted).joined(separator: ", ")
            }
            if let pattern = string.pattern { return "a string matching /\(pattern)/" }
            if let format = string.format { return "a string (\(format))" }
            return "a string"
        case .integer(let bounds):
            return "an integer" + range(bounds)
        case .number(let bounds):
            return "a number" + range(bounds)
        case .boolean:
            return "true or false"
        case .null:
            return "null"
        case .array(let array):
            return "a list of \(count(array))items, each \(summary(of: array.items, detail: detail))"
        case .anyOf(let choices):
            return "one of: " + choices.map { summary(of: $0, detail: detail) }.joined(separator: " | ")
        case .reference(let name):
            return name
        case .any:
            return "any JSON value"
        case .literal(let text):
            return "the value \(text)"
        }
    }

    /// What an object's keys beyond its properties may be, in words; nil
    /// for an object that has none. An object with no properties and any
    /// keys (`{"type": "object"}`, `json_object`) is what the request asks
    /// for: described as empty, a model writes `{}`.
    static func extraKeys(of object: ObjectNode, detail: SchemaPromptDetail) -> String? {
        if object.additionalProperties == .any { return "the keys and values the request asks for" }
        if let value = object.additionalProperties { return "other keys, each " + summary(of: value, detail: detail) }
        guard !object.patternProperties.isEmpty else { return nil }
        return object.patternProperties.map { "keys matching /\($0.pattern)/, each " + summary(of: $0.node, detail: detail) }
            .joined(separator: "; ")
    }

    /// An array's element count in words ("3 to 5 ", "exactly 2 ",
    /// "distinct ", ""), with a trailing space when not empty.
    static func count(_ array: ArrayNode) -> String {
        let count =
            switch (array.minimumCount, array.maximumCount) {
            case (let minimum?, let maximum?) where minimum == maximum: "exactly \(minimum) "
            case (let minimum?, let maximum?): "\(minimum) to \(maximum) "
            case (let minimum?, nil): "at least \(minimum) "
            case (nil, let maximum?): "at most \(maximum) "
            case (nil, nil): ""
            }
        return array.uniqueItems ? count + "distinct " : count
    }

    static func range(_ bounds: NumberNode) -> String {
        switch (bounds.minimum, bounds.maximum) {
        case (let minimum?, let maximum?): " from \(format(minimum)) to \(format(maximum))"
        case (let minimum?, nil): " of at least \(format(minimum))"
        case (nil, let maximum?): " of at most \(format(maximum))"
        case (nil, nil): ""
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: JSONStringEncoding.quoted(text), as: UTF8.self)
    }
}

extension Transcript.ToolDefinition {
    /// The tool as the model reads it among the instructions: its name and
    /// description, then its arguments described like a response schema
    /// (field by field, with descriptions and guides).
    package var promptDescription: String {
        var lines = ["- \(name): \(description)"]
        let arguments = SchemaPromptWriter.describe(parameters.root, description: nil, named: nil)
        lines.append("  Arguments: " + (arguments.first ?? ""))
        lines += arguments.dropFirst().map { "  " + $0 }
        for definition in parameters.definitions {
            lines += SchemaPromptWriter.describe(definition.node, description: definition.description, named: definition.name).map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
