/// Compiles the schema IR into a ``Grammar``.
///
/// Exists to do every check before the first model step: unsupported guides
/// and impossible schemas throw here, with the path of the value, so a
/// generation that starts can always finish with a valid document. It also
/// removes alternatives that can never be finished (a recursive type with no
/// way out) so the matcher can never walk into them.
package struct GrammarCompiler {
    var grammar = Grammar(nodes: [], objects: [], leaves: [], root: 0)
    private let definitions: [String: SchemaDefinition]
    private var definitionNodes: [String: Int32] = [:]
    private var patternLeaves: [String: Int32] = [:]
    private var numberLeaves: [NumberConstraint: Int32] = [:]

    /// Compiles `root`, resolving references among `definitions`.
    /// - Throws: ``GuidedGenerationError/unsupportedGuide(_:)`` for a guide
    ///   that cannot be enforced, ``GuidedGenerationError/unsatisfiable(_:)``
    ///   for a schema no value satisfies.
    package static func compile(root: SchemaNode, definitions: [SchemaDefinition]) throws(GuidedGenerationError) -> Grammar {
        var compiler = GrammarCompiler(definitions: definitions)
        let rootNode = try compiler.node(for: root, at: "#")
        compiler.grammar.root = rootNode
        try compiler.pruneUnproductive()
        compiler.buildKeyTries()
        return compiler.grammar
    }

    init(definitions: [SchemaDefinition]) {
        var byName: [String: SchemaDefinition] = [:]
        for definition in definitions { byName[definition.name] = definition }
        self.definitions = byName
        // The shared leaves, at the indices ``SharedLeaf`` names.
        grammar.leaves = [
            .string(ByteDFA.anyJSONString),
            .string(ByteDFA.literals([Array("true".utf8), Array("false".utf8)])),
            .string(ByteDFA.literals([Array("null".utf8)])),
            .number(Self.anyNumber),
        ]
    }

    private static let anyNumber: NumberConstraint = {
        // Unbounded bounds are always satisfiable.
        (try? NumberConstraint(isInteger: false, minimum: nil, maximum: nil))!
    }()

    mutating func add(_ node: Grammar.Node) -> Int32 {
        grammar.nodes.append(node)
        return Int32(grammar.nodes.count - 1)
    }

    /// A node for a new leaf automaton.
    mutating func addLeaf(_ leaf: Grammar.Leaf) -> Int32 {
        grammar.leaves.append(leaf)
        return add(.leaf(Int32(grammar.leaves.count - 1)))
    }

    mutating func node(for schema: SchemaNode, at path: String) throws(GuidedGenerationError) -> Int32 {
        switch schema {
        case .object(let object):
            var properties: [Grammar.ObjectShape.Property] = []
            var seen: Set<String> = []
            for property in object.properties {
                guard seen.insert(property.name).inserted else {
                    throw .unsatisfiable("\(path) has two properties named \"\(property.name)\"")
                }
                var value = try node(for: property.node, at: "\(path)/properties/\(property.name)")
                var isOptional = property.isOptional
                if isOptional && object.representsNilExplicitly {
                    value = add(.anyOf([value, add(.leaf(SharedLeaf.null.rawValue))]))
                    isOptional = false
                }
                properties.append(.init(name: property.name, value: value, isOptional: isOptional, wordLimit: LengthHint.wordLimit(in: property.description)))
            }
            grammar.objects.append(.init(properties: properties, keyTries: []))
            return add(.object(Int32(grammar.objects.count - 1)))

        case .string(let string):
            return add(.leaf(try stringLeaf(string, at: path)))

        case .integer(let bounds), .number(let bounds):
            let isInteger: Bool
            if case .integer = schema { isInteger = true } else { isInteger = false }
            if !isInteger, bounds.minimum == nil, bounds.maximum == nil {
                return add(.leaf(SharedLeaf.anyNumber.rawValue))
            }
            let constraint: NumberConstraint
            do {
                constraint = try NumberConstraint(isInteger: isInteger, minimum: bounds.minimum, maximum: bounds.maximum)
            } catch {
                throw Self.located(error, at: path)
            }
            if let existing = numberLeaves[constraint] { return add(.leaf(existing)) }
            grammar.leaves.append(.number(constraint))
            let leaf = Int32(grammar.leaves.count - 1)
            numberLeaves[constraint] = leaf
            return add(.leaf(leaf))

        case .boolean:
            return add(.leaf(SharedLeaf.boolean.rawValue))

        case .null:
            return add(.leaf(SharedLeaf.null.rawValue))

        case .array(let array):
            let minimum = array.minimumCount ?? 0
            guard minimum >= 0 else { throw .unsatisfiable("\(path) asks for at least \(minimum) elements") }
            if let maximum = array.maximumCount {
                guard maximum >= minimum else {
                    throw .unsatisfiable("\(path) asks for at least \(minimum) and at most \(maximum) elements")
                }
            }
            guard minimum <= Int(Int32.max), (array.maximumCount ?? 0) <= Int(Int32.max) else {
                throw .unsupportedGuide("\(path): element counts above \(Int32.max)")
            }
            let item = try node(for: array.items, at: "\(path)/items")
            return add(.array(item: item, minimum: Int32(minimum), maximum: array.maximumCount.map { Int32($0) }))

        case .anyOf(let choices):
            guard !choices.isEmpty else { throw .unsatisfiable("\(path) is an anyOf with no choices") }
            var nodes: [Int32] = []
            for (index, choice) in choices.enumerated() {
                nodes.append(try node(for: choice, at: "\(path)/anyOf/\(index)"))
            }
            return add(.anyOf(nodes))

        case .reference(let name):
            if let existing = definitionNodes[name] { return existing }
            guard let definition = definitions[name] else {
                throw .unsatisfiable("\(path) refers to \"\(name)\", which is not defined")
            }
            // Reserve the node first so a recursive reference finds it.
            let reserved = add(.anyOf([]))
            definitionNodes[name] = reserved
            let body = try node(for: definition.node, at: "#/$defs/\(name)")
            grammar.nodes[Int(reserved)] = .anyOf([body])
            return reserved

        case .any:
            return add(.anyValue)
        }
    }

    private mutating func stringLeaf(_ string: StringNode, at path: String) throws(GuidedGenerationError) -> Int32 {
        if let guide = string.unsupportedGuides.first {
            throw .unsupportedGuide("\(path): \(guide)")
        }
        var choices = string.choices
        if let constant = string.constant {
            if let existing = choices {
                guard existing.contains(constant) else {
                    throw .unsatisfiable("\(path): the constant \"\(constant)\" is not one of its choices")
                }
            }
            choices = [constant]
        }
        if let pattern = string.pattern {
            let patternDFA: ByteDFA
            do { patternDFA = try ByteDFA.jsonString(matching: pattern) } catch { throw Self.located(error, at: path) }
            if let list = choices {
                // Both: keep the choices the pattern accepts.
                let kept = list.filter { patternDFA.accepts(JSONStringEncoding.quoted($0)) }
                guard !kept.isEmpty else {
                    throw .unsatisfiable("\(path): none of the choices matches the pattern \(pattern)")
                }
                return try choiceLeaf(kept, at: path)
            }
            if let existing = patternLeaves[pattern] { return existing }
            grammar.leaves.append(.string(patternDFA))
            let leaf = Int32(grammar.leaves.count - 1)
            grammar.precomputedLeaves.append(leaf)
            patternLeaves[pattern] = leaf
            return leaf
        }
        if let list = choices { return try choiceLeaf(list, at: path) }
        return SharedLeaf.anyString.rawValue
    }

    private mutating func choiceLeaf(_ choices: [String], at path: String) throws(GuidedGenerationError) -> Int32 {
        do {
            grammar.leaves.append(.string(try ByteDFA.jsonString(oneOf: choices)))
        } catch {
            throw Self.located(error, at: path)
        }
        let leaf = Int32(grammar.leaves.count - 1)
        grammar.precomputedLeaves.append(leaf)
        return leaf
    }

    private static func located(_ error: GuidedGenerationError, at path: String) -> GuidedGenerationError {
        switch error {
        case .unsupportedGuide(let message): .unsupportedGuide("\(path): \(message)")
        case .unsatisfiable(let message): .unsatisfiable("\(path): \(message)")
        }
    }

    // MARK: - Productivity

    /// Marks nodes that can finish in finitely many bytes, drops choices and
    /// optional properties that cannot, and throws if the root cannot.
    mutating func pruneUnproductive() throws(GuidedGenerationError) {
        var productive = [Bool](repeating: false, count: grammar.nodes.count)
        var changed = true
        while changed {
            changed = false
            for index in grammar.nodes.indices where !productive[index] {
                let value: Bool
                switch grammar.nodes[index] {
                case .leaf, .anyValue: value = true
                case .object(let shape):
                    value = grammar.objects[Int(shape)].properties.allSatisfy { $0.isOptional || productive[Int($0.value)] }
                case .array(let item, let minimum, _):
                    value = minimum == 0 || productive[Int(item)]
                case .anyOf(let choices):
                    value = choices.contains { productive[Int($0)] }
                case .sequence(let parts):
                    value = parts.allSatisfy { productive[Int($0)] }
                }
                if value {
                    productive[index] = true
                    changed = true
                }
            }
        }
        guard productive[Int(grammar.root)] else {
            throw .unsatisfiable("every value of this schema would be infinitely deep (a required property or element refers back to its own type)")
        }
        for index in grammar.nodes.indices {
            switch grammar.nodes[index] {
            case .anyOf(let choices):
                grammar.nodes[index] = .anyOf(choices.filter { productive[Int($0)] })
            case .array(let item, let minimum, let maximum) where !productive[Int(item)]:
                // Only the empty array can be finished.
                grammar.nodes[index] = .array(item: item, minimum: minimum, maximum: min(maximum ?? 0, 0))
            default:
                break
            }
        }
        for shape in grammar.objects.indices {
            grammar.objects[shape].properties.removeAll { $0.isOptional && !productive[Int($0.value)] }
        }
    }

    // MARK: - Key tries

    mutating func buildKeyTries() {
        for shape in grammar.objects.indices {
            let properties = grammar.objects[shape].properties
            var tries: [KeyTrie] = []
            for position in 0...properties.count {
                for emitted in [false, true] {
                    var trie = KeyTrie()
                    var index = position
                    while index < properties.count {
                        let key = (emitted ? [UInt8(ascii: ",")] : []) + JSONStringEncoding.quoted(properties[index].name) + [UInt8(ascii: ":")]
                        trie.insert(key, outcome: .property(Int32(index)))
                        guard properties[index].isOptional else { break }
                        index += 1
                    }
                    if index == properties.count {
                        trie.insert([UInt8(ascii: "}")], outcome: .close)
                    }
                    tries.append(trie)
                }
            }
            grammar.objects[shape].keyTries = tries
        }
    }
}
