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

/// How tool calls are written.
package struct ToolCallFormat: Sendable, Hashable {
    package enum Style: Sendable, Hashable {
        /// One block: the opening marker, a compact JSON array of
        /// `{"name":…,"arguments":…}` objects, the closing marker.
        case jsonArray
        /// One block per call — the opening marker, a line break,
        /// `{"name": "…", "arguments": …}`, a line break, the closing
        /// marker — blocks separated by a line break: the format Qwen2.5's
        /// and other Hermes-style chat templates train their models on.
        case hermes
    }

    package var open: String
    package var close: String
    package var style: Style

    /// A block of calls as a compact JSON array in `<tool_call>` tags: for
    /// models whose chat template has no tool format of its own (SmolLM2).
    package static let toolCallTags = ToolCallFormat(open: "<tool_call>", close: "</tool_call>", style: .jsonArray)
    /// Qwen2.5's own format (its template's `<tool_call>` blocks).
    package static let hermes = ToolCallFormat(open: "<tool_call>", close: "</tool_call>", style: .hermes)

    package init(open: String, close: String, style: Style = .jsonArray) {
        self.open = open
        self.close = close
        self.style = style
    }

    /// The text of one call in the ``Style/hermes`` style, up to where its
    /// arguments start.
    package func hermesHead(name: String) -> String {
        open + "\n" + Self.bareHead(name: name)
    }

    /// The text of one call in the ``Style/hermes`` style after its arguments.
    package var hermesTail: String { "}\n" + close }

    /// A call object without the markers, up to its arguments:
    /// `{"name": "…", "arguments": `. Models trained on the Hermes format
    /// often write calls this way; the turn grammar takes them as calls.
    package static func bareHead(name: String) -> String {
        "{\"name\": " + String(decoding: JSONStringEncoding.quoted(name), as: UTF8.self) + ", \"arguments\": "
    }

    /// How the text of a turn that calls tools can start: prose starting
    /// with one of these would read as a call, so prose may not.
    package var callPrefixes: [String] {
        switch style {
        case .jsonArray: [open]
        case .hermes: [open, "{\"name\""]
        }
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
        maximumCallsPerTurn: Int = 8,
        layout: JSONLayout = .compact
    ) throws(GuidedGenerationError) -> Grammar {
        guard !tools.isEmpty else {
            throw .unsatisfiable("a turn that must call a tool needs at least one tool")
        }
        // Each tool's definitions get the tool's name as a prefix, so two
        // tools' `Arguments` (or an answer type of the same name) never clash.
        var definitions = answerDefinitions
        var arguments: [SchemaNode] = []
        for tool in tools {
            let renames = Dictionary(tool.definitions.map { ($0.name, "\(tool.name).\($0.name)") }, uniquingKeysWith: { first, _ in first })
            for definition in tool.definitions {
                definitions.append(
                    SchemaDefinition(
                        name: renames[definition.name] ?? definition.name,
                        description: definition.description,
                        node: definition.node.renamingReferences(renames)
                    ))
            }
            arguments.append(tool.arguments.renamingReferences(renames))
        }
        var compiler = GrammarCompiler(definitions: definitions)
        compiler.grammar.layout = layout
        let block: Int32
        switch format.style {
        case .jsonArray:
            let calls = zip(tools, arguments).map { tool, arguments in
                SchemaNode.object(
                    ObjectNode(properties: [
                        PropertyNode(name: "name", node: .string(StringNode(constant: tool.name))),
                        PropertyNode(name: "arguments", node: arguments),
                    ]))
            }
            let array = try compiler.node(
                for: .array(ArrayNode(items: .anyOf(calls), minimumCount: 1, maximumCount: maximumCallsPerTurn)),
                at: "#/toolCalls"
            )
            let open = compiler.addLeaf(.string(ByteDFA.literals([Array(format.open.utf8)])))
            let close = compiler.addLeaf(.string(ByteDFA.literals([Array(format.close.utf8)])))
            block = compiler.add(.sequence([open, array, close]))
        case .hermes:
            block = try compiler.hermesCalls(tools: tools, arguments: arguments, format: format, maximum: maximumCallsPerTurn)
        }
        if requiresToolCall {
            compiler.grammar.root = block
        } else {
            let reply: Int32
            if let answer {
                reply = try compiler.node(for: answer, at: "#")
            } else {
                reply = compiler.addLeaf(.string(ByteDFA.text(notStartingWithAnyOf: format.callPrefixes.map { Array($0.utf8) })))
            }
            compiler.grammar.root = compiler.add(.anyOf([block, reply]))
        }
        try compiler.pruneUnproductive()
        compiler.buildKeyTries()
        return compiler.grammar
    }
}

extension GrammarCompiler {
    /// One to `maximum` calls in the ``ToolCallFormat/Style/hermes`` style
    /// — each in its own marked block, or (as these models often write
    /// them) as bare call objects, one per line: for each tool, its head
    /// (marker, name) as one literal, its arguments, then either the tail
    /// (the last call) or the tail, a line break and the next call. The
    /// head and arguments nodes are shared by every position; only the
    /// choice after each call is repeated.
    mutating func hermesCalls(tools: [ToolSchema], arguments: [SchemaNode], format: ToolCallFormat, maximum: Int) throws(GuidedGenerationError)
        -> Int32
    {
        var values: [Int32] = []
        for (tool, schema) in zip(tools, arguments) {
            values.append(try node(for: schema, at: "#/toolCalls/\(tool.name)/arguments"))
        }
        func literal(_ text: String) -> Int32 { addLeaf(.string(ByteDFA.literals([Array(text.utf8)]))) }
        func chain(heads: [Int32], tail: String) -> Int32 {
            let last = literal(tail)
            let more = literal(tail + "\n")
            var calls: Int32 = -1
            for position in 0..<max(1, maximum) {
                let after = position == 0 ? last : add(.anyOf([last, add(.sequence([more, calls]))]))
                calls = add(.anyOf(tools.indices.map { add(.sequence([heads[$0], values[$0], after])) }))
            }
            return calls
        }
        let marked = chain(heads: tools.map { literal(format.hermesHead(name: $0.name)) }, tail: format.hermesTail)
        let bare = chain(heads: tools.map { literal(ToolCallFormat.bareHead(name: $0.name)) }, tail: "}")
        return add(.anyOf([marked, bare]))
    }

    /// The grammar of an answer in prose that cannot be read as a call:
    /// for a turn of a conversation with tools when none may be called
    /// (after the outputs of a required call, or with tool calling
    /// disallowed), where a small model tends to write another call.
    /// (Forbidding more — any JSON, code fences — was measured on the
    /// default model: it then wrote the call in parentheses or as "none";
    /// no better answers.)
    package static func compileProse(format: ToolCallFormat) -> Grammar {
        var compiler = GrammarCompiler(definitions: [])
        compiler.grammar.root = compiler.addLeaf(.string(ByteDFA.text(notStartingWithAnyOf: format.callPrefixes.map { Array($0.utf8) })))
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
