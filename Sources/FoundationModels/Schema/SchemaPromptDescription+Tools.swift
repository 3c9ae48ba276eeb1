import GuidedGeneration

/// A list of tools described within a token budget.
///
/// Exists because each tool's parameters are a schema in the prompt: a
/// client that offers dozens of tools pays for every one of them in
/// prefill before the first token, though the model calls one or two and
/// the decoder enforces the arguments of whichever it picks. Every tool
/// keeps its name and a line of its description (the model can only call
/// a tool it is told of); then, in the tools' order, parameters as names
/// and types, then whole, while they fit.
package enum ToolListBudget {
    /// The pieces to send, one per tool: each tool's fullest level that
    /// fits. `levels[i]` are tool `i`'s renderings, shortest first, its
    /// last the whole one; when the whole ones joined by `separator` fit
    /// `budget` (as `tokenCount` counts them), they are sent unchanged.
    /// Shortest ones that do not fit together are sent anyway.
    package static func fill(levels: [[String]], separator: String, budget: Int, tokenCount: (String) -> Int) -> [String] {
        let whole = levels.map { $0.last ?? "" }
        let joined = whole.joined(separator: separator)
        if joined.utf8.count <= budget || tokenCount(joined) <= budget { return whole }
        let overhead = tokenCount("")
        var counted: [String: Int] = [:]
        func cost(_ text: String) -> Int {
            if let known = counted[text] { return known }
            let count = max(0, tokenCount(text) - overhead) + 1
            counted[text] = count
            return count
        }
        func choose(_ target: Int) -> [String] {
            var chosen = levels.map { $0.first ?? "" }
            var used = chosen.reduce(0) { $0 + cost($1) }
            let deepest = levels.map(\.count).max() ?? 0
            for level in 1..<max(1, deepest) {
                for (index, tool) in levels.enumerated() where level < tool.count {
                    let change = cost(tool[level]) - cost(chosen[index])
                    if used + change <= target {
                        used += change
                        chosen[index] = tool[level]
                    }
                }
            }
            return chosen
        }
        var target = budget
        var chosen = choose(target)
        for _ in 0..<8 {
            let overshoot = tokenCount(chosen.joined(separator: separator)) - budget
            guard overshoot > 0, target > 0 else { break }
            target -= overshoot
            chosen = choose(target)
        }
        return chosen
    }
}

extension Transcript.ToolDefinition {
    /// ``promptDescription`` shortest first: the name and a sentence of
    /// the description; then the arguments as names and types; then whole.
    package var promptDescriptionLevels: [String] {
        let line = "- \(name): \(SchemaPromptWriter.clipped(description, to: 160))"
        guard case .object(let object) = parameters.root, !object.properties.isEmpty else { return [line, promptDescription] }
        let fields = object.properties.map { "\"\($0.name)\"" + ($0.isOptional ? "?" : "") + ": " + SchemaPromptWriter.compact($0.node) }
        return [line, line + "\n  Arguments: {" + fields.joined(separator: ", ") + "}", promptDescription]
    }

    /// The tool's JSON function signature (the Hermes-style `<tools>`
    /// block's line) shortest first: without parameters, with the
    /// parameters' names and types alone, whole.
    package var signatureLevels: [String] {
        func signature(description: String, parameters: GeneratedContent?) -> String {
            let function =
                parameters.map { GeneratedContent(properties: ["name": name, "description": description, "parameters": $0]) }
                ?? GeneratedContent(properties: ["name": name, "description": description])
            return GeneratedContent(properties: ["type": "function", "function": function]).jsonString
        }
        let whole = signature(description: description, parameters: parameters.jsonSchema)
        let line = SchemaPromptWriter.clipped(description, to: 160)
        guard case .object(let object) = parameters.root, !object.properties.isEmpty else {
            return [signature(description: line, parameters: nil), whole]
        }
        let properties = object.properties.map { ($0.name, Self.typeOnly($0.node)) }
        let required = object.properties.filter { !$0.isOptional }.map { GeneratedContent($0.name) }
        let outline = GeneratedContent(
            kind: .structure(
                properties: [
                    "type": GeneratedContent("object"),
                    "properties": GeneratedContent(
                        kind: .structure(
                            properties: Dictionary(properties, uniquingKeysWith: { first, _ in first }),
                            orderedKeys: properties.map(\.0))),
                    "required": GeneratedContent(kind: .array(required)),
                ],
                orderedKeys: ["type", "properties", "required"]))
        return [signature(description: line, parameters: nil), signature(description: line, parameters: outline), whole]
    }

    /// A parameter's JSON Schema type alone (`{"type": "string"}`, short
    /// choice lists kept).
    private static func typeOnly(_ node: SchemaNode) -> GeneratedContent {
        func name(_ node: SchemaNode) -> String {
            switch node {
            case .object, .reference, .any: "object"
            case .string: "string"
            case .integer: "integer"
            case .number: "number"
            case .boolean: "boolean"
            case .array: "array"
            case .null: "null"
            case .literal(let text):
                text.hasPrefix("\"") ? "string" : text == "null" ? "null" : text == "true" || text == "false" ? "boolean" : "number"
            case .anyOf(let choices): choices.first.map(name) ?? "object"
            }
        }
        if case .string(let string) = node, let choices = string.choices, choices.count <= 8 {
            return GeneratedContent(
                kind: .structure(
                    properties: ["type": GeneratedContent("string"), "enum": GeneratedContent(kind: .array(choices.map { GeneratedContent($0) }))],
                    orderedKeys: ["type", "enum"]))
        }
        if case .anyOf(let choices) = node {
            var names: [String] = []
            for choice in choices where !names.contains(name(choice)) { names.append(name(choice)) }
            if names.count > 1 {
                return GeneratedContent(
                    kind: .structure(
                        properties: ["type": GeneratedContent(kind: .array(names.map { GeneratedContent($0) }))],
                        orderedKeys: ["type"]))
            }
        }
        return GeneratedContent(kind: .structure(properties: ["type": GeneratedContent(name(node))], orderedKeys: ["type"]))
    }
}
