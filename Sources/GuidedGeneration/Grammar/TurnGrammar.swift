/// A tool the model may call: its name and the schema of its arguments.
package struct ToolSchema: Sendable, Hashable {
    package var name: String
    package var arguments: SchemaNode
    package var definitions: [SchemaDefinition]

    package init(name: String, arguments: SchemaNode, definitions: [SchemaDefinition] = []) {
        self.name = name
        self.arguments = arguments
        self.definitions = definitions
    }
}

/// How tool calls are written: the opening marker, a compact JSON array of
/// `{"name":…,"arguments":…}` objects, the closing marker.
package struct ToolCallFormat: Sendable, Hashable {
    package var open: String
    package var close: String

    /// The format small open models are trained on (SmolLM2, Hermes-style
    /// templates).
    package static let toolCallTags = ToolCallFormat(open: "<tool_call>", close: "</tool_call>")

    package init(open: String, close: String) {
        self.open = open
        self.close = close
    }
}

extension GrammarCompiler {
    /// The grammar of one model turn when tools are enabled: a block of one
    /// or more calls — each to a declared tool, with arguments that follow
    /// its schema — or (unless `requiresToolCall`) the answer: prose that
    /// does not start with the call marker, or a value of `answer`.
    ///
    /// Exists so a turn can never hold a malformed call: an unknown tool
    /// name or arguments outside their schema are as impossible as an
    /// invalid typed answer.
    package static func compileTurn(
        answer: SchemaNode?,
        answerDefinitions: [SchemaDefinition],
        tools: [ToolSchema],
        requiresToolCall: Bool,
        format: ToolCallFormat = .toolCallTags,
        maximumCallsPerTurn: Int = 8
    ) throws(GuidedGenerationError) -> Grammar {
        guard !tools.isEmpty else {
            throw .unsatisfiable("a turn that must call a tool needs at least one tool")
        }
        // Each tool's definitions get the tool's name as a prefix, so two
        // tools' `Arguments` (or an answer type of the same name) never clash.
        var definitions = answerDefinitions
        var calls: [SchemaNode] = []
        for tool in tools {
            let renames = Dictionary(tool.definitions.map { ($0.name, "\(tool.name).\($0.name)") }, uniquingKeysWith: { first, _ in first })
            for definition in tool.definitions {
                definitions.append(SchemaDefinition(
                    name: renames[definition.name] ?? definition.name,
                    description: definition.description,
                    node: definition.node.renamingReferences(renames)
                ))
            }
            calls.append(.object(ObjectNode(properties: [
                PropertyNode(name: "name", node: .string(StringNode(constant: tool.name))),
                PropertyNode(name: "arguments", node: tool.arguments.renamingReferences(renames)),
            ])))
        }
        var compiler = GrammarCompiler(definitions: definitions)
        let array = try compiler.node(
            for: .array(ArrayNode(items: .anyOf(calls), minimumCount: 1, maximumCount: maximumCallsPerTurn)),
            at: "#/toolCalls"
        )
        let open = compiler.addLeaf(.string(ByteDFA.literals([Array(format.open.utf8)])))
        let close = compiler.addLeaf(.string(ByteDFA.literals([Array(format.close.utf8)])))
        let block = compiler.add(.sequence([open, array, close]))
        if requiresToolCall {
            compiler.grammar.root = block
        } else {
            let reply: Int32
            if let answer {
                reply = try compiler.node(for: answer, at: "#")
            } else {
                reply = compiler.addLeaf(.string(ByteDFA.text(notStartingWith: Array(format.open.utf8))))
            }
            compiler.grammar.root = compiler.add(.anyOf([block, reply]))
        }
        try compiler.pruneUnproductive()
        compiler.buildKeyTries()
        return compiler.grammar
    }
}

extension SchemaNode {
    /// The same node with references renamed by `renames` (others kept).
    package func renamingReferences(_ renames: [String: String]) -> SchemaNode {
        guard !renames.isEmpty else { return self }
        switch self {
        case .reference(let name):
            return .reference(renames[name] ?? name)
        case .object(var object):
            for index in object.properties.indices {
                object.properties[index].node = object.properties[index].node.renamingReferences(renames)
            }
            object.additionalProperties = object.additionalProperties?.renamingReferences(renames)
            for index in object.patternProperties.indices {
                object.patternProperties[index].node = object.patternProperties[index].node.renamingReferences(renames)
            }
            return .object(object)
        case .array(var array):
            array.items = array.items.renamingReferences(renames)
            array.prefixItems = array.prefixItems.map { $0.renamingReferences(renames) }
            return .array(array)
        case .anyOf(let choices):
            return .anyOf(choices.map { $0.renamingReferences(renames) })
        case .string, .integer, .number, .boolean, .null, .any, .literal:
            return self
        }
    }
}
