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
    private var stringLeaves: [StringNode: Int32] = [:]
    private var numberLeaves: [NumberConstraint: Int32] = [:]
    /// Compiling the elements of an array whose elements must differ:
    /// free strings get the canonical spelling, so that equal values are
    /// equal bytes (``UniqueValues``), and definitions are compiled again.
    private var canonicalStrings = false
    private var canonicalStringLeaves: [StringNode: Int32] = [:]
    private var canonicalDefinitionNodes: [String: Int32] = [:]
    /// See ``countedStringStates``.
    private var countedStates = countedStringStates

    /// Compiles `root`, resolving references among `definitions`.
    /// `countedStates` is ``countedStringStates`` (tests lower it to count
    /// the characters of small strings too).
    /// - Throws: ``GuidedGenerationError/unsupportedGuide(_:)`` for a guide
    ///   that cannot be enforced, ``GuidedGenerationError/unsatisfiable(_:)``
    ///   for a schema no value satisfies.
    package static func compile(
        root: SchemaNode, definitions: [SchemaDefinition], layout: JSONLayout = .compact, countedStates: Int = countedStringStates
    ) throws(GuidedGenerationError) -> Grammar {
        var compiler = GrammarCompiler(definitions: definitions)
        compiler.grammar.layout = layout
        compiler.countedStates = countedStates
        let rootNode = try compiler.node(for: root, at: "#")
        compiler.grammar.root = rootNode
        try compiler.pruneUnproductive()
        compiler.chooseLayout()
        compiler.buildKeyTries()
        return compiler.grammar
    }

    init(definitions: [SchemaDefinition]) {
        var byName: [String: SchemaDefinition] = [:]
        for definition in definitions { byName[definition.name] = definition }
        self.definitions = byName
        // The shared leaves, at the indices ``SharedLeaf`` names.
        for leaf: Grammar.Leaf in [
            .string(ByteDFA.anyJSONString),
            .string(ByteDFA.literals([Array("true".utf8), Array("false".utf8)])),
            .string(ByteDFA.literals([Array("null".utf8)])),
            .number(Self.anyNumber),
        ] {
            grammar.addLeaf(leaf)
        }
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
        add(.leaf(grammar.addLeaf(leaf)))
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
                properties.append(
                    .init(name: property.name, value: value, isOptional: isOptional, wordLimit: LengthHint.wordLimit(in: property.description)))
            }
            let extras = try extraKeys(of: object, declared: properties.map(\.name), at: path)
            if object.requiresAProperty, !object.representsNilExplicitly, properties.isEmpty {
                // The shortest completion (a budget running out) writes
                // declared properties, never extra keys.
                throw .unsupportedGuide("\(path) must have a property but declares none")
            }
            grammar.objects.append(
                .init(
                    properties: properties, extras: extras, keyTries: [],
                    requiresAProperty: object.requiresAProperty && !object.representsNilExplicitly))
            return add(.object(Int32(grammar.objects.count - 1)))

        case .string(let string):
            return add(.leaf(try stringLeaf(string, at: path)))

        case .integer(let bounds), .number(let bounds):
            let isInteger: Bool
            if case .integer = schema { isInteger = true } else { isInteger = false }
            if !isInteger, bounds.minimum == nil, bounds.maximum == nil {
                // (Exclusivity flags without bounds exclude nothing.)
                return add(.leaf(SharedLeaf.anyNumber.rawValue))
            }
            let constraint: NumberConstraint
            do {
                constraint = try NumberConstraint(
                    isInteger: isInteger, minimum: bounds.minimum, maximum: bounds.maximum,
                    excludesMinimum: bounds.excludesMinimum, excludesMaximum: bounds.excludesMaximum
                )
            } catch {
                throw Self.located(error, at: path)
            }
            if let existing = numberLeaves[constraint] { return add(.leaf(existing)) }
            let leaf = grammar.addLeaf(.number(constraint))
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
            // (At most one element: nothing to compare.)
            let unique = array.uniqueItems && (array.maximumCount ?? 2) > 1
            let outer = canonicalStrings
            canonicalStrings = outer || unique
            defer { canonicalStrings = outer }
            let item = try node(for: array.items, at: "\(path)/items")
            var prefix: [Int32] = []
            for (index, element) in array.prefixItems.enumerated() {
                prefix.append(try node(for: element, at: "\(path)/prefixItems/\(index)"))
            }
            let compiled: Int32
            if prefix.isEmpty {
                compiled = add(.array(item: item, minimum: Int32(minimum), maximum: array.maximumCount.map { Int32($0) }))
            } else {
                grammar.tuples.append(.init(prefix: prefix, rest: item, minimum: Int32(minimum), maximum: array.maximumCount.map { Int32($0) }))
                compiled = add(.tuple(Int32(grammar.tuples.count - 1)))
            }
            if unique {
                for element in prefix + [item] { try checkComparable(element, at: path) }
                // (The distinct values are found one by one: a bound keeps
                // that quick. No budget holds such a list anyway.)
                guard minimum <= Self.maximumDistinctElements else {
                    throw .unsupportedGuide("keyword \"uniqueItems\" at \(path)/uniqueItems with minItems above \(Self.maximumDistinctElements)")
                }
                grammar.uniqueArrays.insert(compiled)
                guard grammar.freshElements(of: compiled, from: 0, to: minimum, excluding: []) != nil else {
                    throw .unsatisfiable("\(path): minItems \(minimum) with uniqueItems, but its elements cannot take \(minimum) different values")
                }
            }
            return compiled

        case .anyOf(let choices):
            guard !choices.isEmpty else { throw .unsatisfiable("\(path) is an anyOf with no choices") }
            var nodes: [Int32] = []
            for (index, choice) in choices.enumerated() {
                nodes.append(try node(for: choice, at: "\(path)/anyOf/\(index)"))
            }
            if let merged = mergedStringChoices(nodes) { return merged }
            return add(.anyOf(nodes))

        case .reference(let name):
            if let existing = canonicalStrings ? canonicalDefinitionNodes[name] : definitionNodes[name] { return existing }
            guard let definition = definitions[name] else {
                throw .unsatisfiable("\(path) refers to \"\(name)\", which is not defined")
            }
            // Reserve the node first so a recursive reference finds it.
            let reserved = add(.anyOf([]))
            if canonicalStrings { canonicalDefinitionNodes[name] = reserved } else { definitionNodes[name] = reserved }
            let body = try node(for: definition.node, at: "#/$defs/\(name)")
            grammar.nodes[Int(reserved)] = .anyOf([body])
            return reserved

        case .any:
            return add(.anyValue)

        case .literal(let text):
            let leaf = grammar.addLeaf(.string(ByteDFA.literals([Array(text.utf8)])))
            return add(.leaf(leaf))
        }
    }

    /// One leaf for an anyOf whose choices are all strings of the schema's
    /// own (patterns, choice lists, formats, constants), none of whose
    /// values starts another's: the union of their automata. A mask inside the string is then one walk of the
    /// vocabulary per state rather than one per choice still open (a
    /// `oneOf` of five patterns walked it five times a token). Nil where a
    /// choice is anything else — a free string keeps its shared masks and
    /// its pacing — or where the union would cost more than
    /// ``mergeWorkLimit`` to build.
    private mutating func mergedStringChoices(_ nodes: [Int32]) -> Int32? {
        guard nodes.count > 1 else { return nil }
        var automata: [ByteDFA] = []
        for node in nodes {
            guard case .leaf(let leaf) = grammar.nodes[Int(node)], grammar.sharedLeaf(leaf) == nil,
                case .string(let automaton) = grammar.leaves[Int(leaf)]
            else { return nil }
            automata.append(automaton)
        }
        // A leaf is left where it is complete and nothing can follow it
        // (a string's closing quote), so no value of one choice may begin
        // another's (`1` and `1000` of an integer enum stay apart): only
        // quoted strings, which end at their closing quote, are merged.
        guard automata.allSatisfy(\.isQuotedString) else { return nil }
        guard let union = try? ByteDFA.combine(automata, subject: "anyOf", workLimit: Self.mergeWorkLimit, accepts: { $0.contains(true) }),
            union.start >= 0
        else { return nil }
        return add(.leaf(grammar.addLeaf(.string(union))))
    }

    /// The most component transitions ``mergedStringChoices(_:)`` spends on
    /// a union (a few milliseconds): past that the choices stay apart.
    static let mergeWorkLimit = 1 << 19

    /// The key languages of an open object's extra keys and their values:
    /// canonical strings that are not a declared property's name (and
    /// follow `propertyNames`), split by which `patternProperties` they
    /// match, so each key has exactly one value schema.
    private mutating func extraKeys(of object: ObjectNode, declared: [String], at path: String) throws(GuidedGenerationError) -> [Grammar.ObjectShape
        .Extra]
    {
        guard object.isOpen else { return [] }
        do throws(GuidedGenerationError) {
            var universe = ByteDFA.canonicalString
            if let names = object.propertyNames {
                universe = try ByteDFA.intersection(
                    [universe, try stringAutomaton(names, at: "\(path)/propertyNames") ?? universe], subject: "property names at \(path)")
            }
            if !declared.isEmpty {
                let names = try ByteDFA.jsonString(oneOf: declared)
                universe = try ByteDFA.combine([universe, names], subject: "extra keys at \(path)") { $0[0] && !$0[1] }
            }
            guard !universe.isEmpty else { return [] }
            var patterns: [ByteDFA] = []
            for property in object.patternProperties {
                patterns.append(try ByteDFA.jsonString(matching: property.pattern, search: true))
            }
            guard patterns.count <= 6 else {
                throw GuidedGenerationError.unsupportedGuide("more than 6 patternProperties")
            }
            var extras: [Grammar.ObjectShape.Extra] = []
            // Every combination of matched patterns (none matched: additionalProperties).
            for combination in 0..<(1 << patterns.count) {
                let matched = (0..<patterns.count).filter { combination & (1 << $0) != 0 }
                let value: SchemaNode?
                if matched.isEmpty {
                    value = object.additionalProperties
                } else if matched.count == 1 {
                    value = object.patternProperties[matched[0]].node
                } else {
                    let nodes = Set(matched.map { object.patternProperties[$0].node })
                    value = nodes.count == 1 ? nodes.first : nil
                    if nodes.count > 1 {
                        // Several patterns with different schemas match: refused
                        // only if some key really matches them all.
                        let keys = try ByteDFA.combine([universe] + patterns, subject: "keys at \(path)") { accepts in
                            accepts[0] && (0..<patterns.count).allSatisfy { accepts[$0 + 1] == matched.contains($0) }
                        }
                        if !keys.isEmpty {
                            throw GuidedGenerationError.unsupportedGuide(
                                "keys matching several patternProperties with different schemas (\(matched.map { object.patternProperties[$0].pattern }))"
                            )
                        }
                        continue
                    }
                }
                guard let value else { continue }
                let keys = try ByteDFA.combine([universe] + patterns, subject: "keys at \(path)") { accepts in
                    accepts[0] && (0..<patterns.count).allSatisfy { accepts[$0 + 1] == matched.contains($0) }
                }
                guard !keys.isEmpty else { continue }
                let valueNode = try node(
                    for: value,
                    at: matched.isEmpty ? "\(path)/additionalProperties" : "\(path)/patternProperties/\(object.patternProperties[matched[0]].pattern)"
                )
                let leaf = grammar.addLeaf(.string(keys))
                extras.append(.init(key: leaf, value: valueNode))
            }
            return extras
        } catch {
            throw Self.located(error, at: path)
        }
    }

    /// The most elements an array whose elements must differ may be made to
    /// have (`minItems`).
    static let maximumDistinctElements = 10_000

    /// The element `node` of an array whose elements must differ is a
    /// value the matcher can compare as it is written: a string (canonical
    /// spelling), an integer, a boolean, null or a constant, or a choice of
    /// them. Throws for the rest, naming what the element may be.
    private func checkComparable(_ node: Int32, at path: String) throws(GuidedGenerationError) {
        var visited: Set<Int32> = []
        func what(_ node: Int32) -> String? {
            guard visited.insert(node).inserted else { return nil }
            switch grammar.nodes[Int(node)] {
            case .leaf(let leaf):
                if leaf == SharedLeaf.anyString.rawValue { return "strings in any spelling" }
                switch grammar.leaves[Int(leaf)] {
                case .string: return nil
                case .number(let number): return number.isInteger ? nil : "numbers with a fraction"
                case .counted: return "strings in any spelling"
                }
            case .anyOf(let choices):
                if choices.isEmpty { return "of a recursive type" }
                for choice in choices { if let found = what(choice) { return found } }
                return nil
            case .object: return "objects"
            case .array, .tuple: return "arrays"
            case .anyValue: return "any value"
            case .sequence: return "sequences"
            }
        }
        if let found = what(node) {
            throw .unsupportedGuide(
                "keyword \"uniqueItems\" at \(path)/uniqueItems: elements that may be \(found) cannot be compared token by token (strings, integers, booleans, null and constants can)"
            )
        }
    }

    private mutating func stringLeaf(_ string: StringNode, at path: String) throws(GuidedGenerationError) -> Int32 {
        let bounded = (string.minimumLength ?? 0) > 0 || string.maximumLength != nil
        if canonicalStrings, !string.constrainsText || bounded, string.unsupportedGuides.isEmpty {
            return try canonicalStringLeaf(string, at: path)
        }
        if let existing = stringLeaves[string] { return existing }
        if let guide = string.unsupportedGuides.first {
            throw .unsupportedGuide("\(path): \(guide)")
        }
        let leaf: Int32
        let minimum = string.minimumLength ?? 0
        if !string.constrainsText {
            if minimum == 0, string.maximumLength == nil { return SharedLeaf.anyString.rawValue }
            // A free string with length bounds: counted, on the free string's automaton.
            if let maximum = string.maximumLength, maximum < minimum {
                throw .unsatisfiable("\(path): minLength \(minimum) is greater than maxLength \(maximum)")
            }
            leaf = grammar.addLeaf(
                .counted(
                    .free(
                        minimum: UInt64(max(minimum, 0)), maximum: string.maximumLength.map { UInt64(max($0, 0)) } ?? UInt64.max
                    )))
        } else if bounded {
            guard let bounded = try boundedString(string, at: path) else { return SharedLeaf.anyString.rawValue }
            leaf = grammar.addLeaf(bounded)
        } else {
            guard let automaton = try stringAutomaton(string, at: path) else { return SharedLeaf.anyString.rawValue }
            leaf = grammar.addLeaf(.string(automaton))
        }
        stringLeaves[string] = leaf
        return leaf
    }

    /// A pattern, format or choice list under a length bound: the bound in
    /// the automaton while that stays small (its masks are then the
    /// vocabulary's, shared with every schema that has the same string,
    /// and its walks are cut short where the bound rules a token out);
    /// counted beside it past ``countedStringStates``, or where the product
    /// cannot be built at all (a bound past the longest count a pattern
    /// may have, a product past the state limit).
    private func boundedString(_ string: StringNode, at path: String) throws(GuidedGenerationError) -> Grammar.Leaf? {
        let product: ByteDFA?
        do {
            product = try stringAutomaton(string, at: path)
        } catch {
            guard case .unsupportedGuide = error, let counted = try countedString(string, at: path) else { throw error }
            return .counted(counted)
        }
        guard let product else { return nil }
        if product.stateCount > countedStates, let counted = try countedString(string, at: path) {
            return .counted(counted)
        }
        return .string(product)
    }

    /// The most states a string's automaton with its length bound in it
    /// may have before the bound is counted beside the automaton instead:
    /// past it the automaton is the schema's own
    /// (``TokenConstraint/sharedAutomatonStateLimit``), and a token
    /// reaches a new state, a walk of the vocabulary, at almost every step.
    package static let countedStringStates = TokenConstraint.sharedAutomatonStateLimit

    /// A pattern, format or choice list under a length bound, its
    /// characters counted beside its own automaton (``CharacterCounts``)
    /// rather than in the product with the bound, whose states grow with
    /// the bound (`[a-zA-Z0-9_.-]+` within 3 to 255 characters: three
    /// states against 3,573). Nil where the language is finite (its
    /// automaton holds its lengths already) or where counting beside it
    /// would not be exact.
    private func countedString(_ string: StringNode, at path: String) throws(GuidedGenerationError) -> Grammar.CountedString? {
        var free = string
        free.minimumLength = nil
        free.maximumLength = nil
        let minimum = UInt64(max(string.minimumLength ?? 0, 0))
        let maximum = string.maximumLength.map { UInt64(max($0, 0)) }
        // (Its shortest completion is a search over state and count, up
        // to the minimum.)
        guard minimum <= UInt64(PatternParser.maximumCount) else { return nil }
        guard let automaton = try stringAutomaton(free, at: path),
            let characters = CharacterCounts(automaton, maximum: maximum),
            characters.most[Int(automaton.start)] == CharacterCounts.unlimited
        else { return nil }
        if let maximum, maximum < minimum {
            throw .unsatisfiable("\(path): minLength \(minimum) is greater than maxLength \(maximum)")
        }
        guard characters.canComplete(automaton.start, count: 0, minimum: minimum, maximum: maximum ?? UInt64.max) else {
            throw .unsatisfiable("\(path): no string satisfies all of its constraints")
        }
        return Grammar.CountedString(automaton: automaton, characters: characters, minimum: minimum, maximum: maximum ?? UInt64.max)
    }

    /// A string among the elements of an array whose elements must differ:
    /// in the canonical spelling, so that equal strings are equal bytes,
    /// and with any length bound in its automaton, so that the matcher can
    /// compare elements as the automaton writes them.
    private mutating func canonicalStringLeaf(_ string: StringNode, at path: String) throws(GuidedGenerationError) -> Int32 {
        if let existing = canonicalStringLeaves[string] { return existing }
        if string.constrainsText {
            guard let automaton = try stringAutomaton(string, at: path) else { return SharedLeaf.anyString.rawValue }
            let leaf = grammar.addLeaf(.string(automaton))
            canonicalStringLeaves[string] = leaf
            return leaf
        }
        let minimum = max(string.minimumLength ?? 0, 0)
        let automaton: ByteDFA
        if minimum == 0, string.maximumLength == nil {
            automaton = ByteDFA.canonicalString
        } else {
            if let maximum = string.maximumLength, maximum < minimum {
                throw .unsatisfiable("\(path): minLength \(minimum) is greater than maxLength \(maximum)")
            }
            guard minimum <= PatternParser.maximumCount, (string.maximumLength ?? 0) <= PatternParser.maximumCount else {
                throw .unsupportedGuide("keyword \"uniqueItems\" over strings with a length bound above \(PatternParser.maximumCount), at \(path)")
            }
            do {
                automaton = try ByteDFA.jsonString(length: minimum, string.maximumLength)
            } catch {
                throw Self.located(error, at: path)
            }
        }
        let leaf = grammar.addLeaf(.string(automaton))
        canonicalStringLeaves[string] = leaf
        return leaf
    }

    /// The automaton of every constraint on a string (choices, patterns,
    /// format, length), canonical encoding; nil for a free string. One
    /// of choices, or that combines several constraints, is kept for the
    /// process (``BuiltAutomata``, which keeps a lone pattern or length
    /// already): only errors name `path`.
    private func stringAutomaton(_ string: StringNode, at path: String) throws(GuidedGenerationError) -> ByteDFA? {
        let constraints =
            [
                string.choices != nil || string.constant != nil, string.pattern != nil, string.format != nil,
                (string.minimumLength ?? 0) > 0 || string.maximumLength != nil, !string.excludedValues.isEmpty,
            ]
            .filter { $0 }.count + string.searchPatterns.count + string.excludedPatterns.count
        let kept = constraints > 1 || string.choices != nil
        if kept, let known = BuiltAutomata.known(.string(string)) { return known }
        guard let built = try buildStringAutomaton(string, at: path) else { return nil }
        if kept { BuiltAutomata.keep(built, for: .string(string)) }
        return built
    }

    private func buildStringAutomaton(_ string: StringNode, at path: String) throws(GuidedGenerationError) -> ByteDFA? {
        var parts: [ByteDFA] = []
        var choices = string.choices
        if let constant = string.constant {
            if let existing = choices, !existing.contains(constant) {
                throw .unsatisfiable("\(path): the constant \"\(constant)\" is not one of its choices")
            }
            choices = [constant]
        }
        do throws(GuidedGenerationError) {
            if let choices { parts.append(try ByteDFA.jsonString(oneOf: choices)) }
            if let pattern = string.pattern { parts.append(try ByteDFA.jsonString(matching: pattern)) }
            for pattern in string.searchPatterns { parts.append(try ByteDFA.jsonString(matching: pattern, search: true)) }
            if let format = string.format {
                guard let pattern = StringFormat.pattern(for: format) else {
                    throw GuidedGenerationError.unsupportedGuide("format \"\(format)\" (known: \(StringFormat.known.joined(separator: ", ")))")
                }
                parts.append(try ByteDFA.jsonString(matching: pattern))
            }
            let minimum = max(string.minimumLength ?? 0, 0)
            if minimum > 0 || string.maximumLength != nil {
                if let maximum = string.maximumLength, maximum < minimum {
                    throw GuidedGenerationError.unsatisfiable("minLength \(minimum) is greater than maxLength \(maximum)")
                }
                let bounded = try ByteDFA.jsonString(
                    length: min(minimum, PatternParser.maximumCount), string.maximumLength.flatMap { $0 > PatternParser.maximumCount ? nil : $0 })
                if minimum > PatternParser.maximumCount || (string.maximumLength ?? 0) > PatternParser.maximumCount, !parts.isEmpty {
                    // Long bounds: enforced only where the other constraints
                    // already imply them.
                    let combined = try ByteDFA.intersection(parts, subject: "the string at \(path)")
                    guard let longest = combined.longestLength(), longest <= (string.maximumLength ?? Int.max), minimum <= PatternParser.maximumCount
                    else {
                        throw GuidedGenerationError.unsupportedGuide(
                            "a length bound above \(PatternParser.maximumCount) together with a pattern, format or choices")
                    }
                }
                parts.append(bounded)
            }
            var excluded: [ByteDFA] = []
            if !string.excludedValues.isEmpty { excluded.append(try ByteDFA.jsonString(oneOf: string.excludedValues)) }
            for pattern in string.excludedPatterns { excluded.append(try ByteDFA.jsonString(matching: pattern, search: true)) }
            guard !parts.isEmpty || !excluded.isEmpty else { return nil }
            var automaton = parts.isEmpty ? ByteDFA.canonicalString : try ByteDFA.intersection(parts, subject: "the string at \(path)")
            if !excluded.isEmpty {
                // What the other constraints allow and no exclusion matches.
                automaton = try ByteDFA.combine([automaton] + excluded, subject: "the string at \(path)") { accepting in
                    accepting[0] && !accepting.dropFirst().contains(true)
                }
            }
            guard !automaton.isEmpty else {
                throw GuidedGenerationError.unsatisfiable("no string satisfies all of its constraints")
            }
            return automaton
        } catch {
            throw Self.located(error, at: path)
        }
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
                    let object = grammar.objects[Int(shape)]
                    value =
                        object.properties.allSatisfy { $0.isOptional || productive[Int($0.value)] }
                        && (!object.requiresAProperty || object.properties.contains { productive[Int($0.value)] })
                case .array(let item, let minimum, _):
                    value = minimum == 0 || productive[Int(item)]
                case .anyOf(let choices):
                    value = choices.contains { productive[Int($0)] }
                case .sequence(let parts):
                    value = parts.allSatisfy { productive[Int($0)] }
                case .tuple(let id):
                    let shape = grammar.tuples[Int(id)]
                    value = (0..<Int(shape.minimum)).allSatisfy { index in
                        let element = index < shape.prefix.count ? shape.prefix[index] : shape.rest
                        return element >= 0 && productive[Int(element)]
                    }
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
            grammar.objects[shape].extras.removeAll { !productive[Int($0.value)] }
        }
        for id in grammar.tuples.indices {
            // Elements past the first that cannot be finished cut the tuple there.
            let shape = grammar.tuples[id]
            for index in 0..<(shape.prefix.count + 1) {
                let element = index < shape.prefix.count ? shape.prefix[index] : shape.rest
                if element >= 0, !productive[Int(element)] {
                    grammar.tuples[id].maximum = min(shape.maximum ?? Int32(index), Int32(index))
                    break
                }
            }
        }
    }

    // MARK: - Layout

    /// Settles the indented layout: which arrays put each element on a line
    /// of its own (those whose elements can be objects or lists). Free-form
    /// values and extra keys need nothing here: the matcher lays them out
    /// as it writes them (a free-form array's form is chosen at its `[`).
    mutating func chooseLayout() {
        guard grammar.layout == .indented else { return }
        var memo: [Int32: Bool] = [:]
        func isContainer(_ node: Int32, _ visiting: inout Set<Int32>) -> Bool {
            if let known = memo[node] { return known }
            guard visiting.insert(node).inserted else { return false }
            let result: Bool
            switch grammar.nodes[Int(node)] {
            case .object, .array, .tuple, .anyValue, .sequence: result = true
            case .leaf: result = false
            case .anyOf(let choices): result = choices.contains { isContainer($0, &visiting) }
            }
            memo[node] = result
            return result
        }
        grammar.expandedArrays = grammar.nodes.indices.map { index in
            var visiting: Set<Int32> = []
            switch grammar.nodes[index] {
            case .array(let item, _, _):
                return isContainer(item, &visiting)
            case .tuple(let id):
                let shape = grammar.tuples[Int(id)]
                return (shape.prefix + (shape.rest >= 0 ? [shape.rest] : [])).contains { isContainer($0, &visiting) }
            default:
                return false
            }
        }
    }

    // MARK: - Key tries

    mutating func buildKeyTries() {
        // Indented, every key starts a line and so does the closing brace
        // of a non-empty object: the trie holds the line break, the
        // matcher the indentation after it.
        let newline: [UInt8] = grammar.layout == .indented ? [UInt8(ascii: "\n")] : []
        let comma = grammar.layout.comma
        for shape in grammar.objects.indices {
            let properties = grammar.objects[shape].properties
            // Each key's bytes, spelled once, with and without the comma
            // before it; and the properties in the order of those bytes,
            // which every trie's entries follow (the comma prefix is
            // shared, so it does not change the order).
            let keys = properties.map { newline + JSONStringEncoding.quoted($0.name) + grammar.layout.colon }
            let keysAfterComma = keys.map { comma + $0 }
            let order = properties.indices.sorted { keys[$0].lexicographicallyPrecedes(keys[$1]) }
            var tries: [KeyTrie] = []
            var trieAt = [Int32](repeating: 0, count: 2 * (properties.count + 1))
            var entries: [(bytes: [UInt8], outcome: KeyTrie.Outcome)] = []
            let requiresAProperty = grammar.objects[shape].requiresAProperty
            // Runs of positions with the same last candidate: from `first`
            // up to and including the first required property (or the
            // end). At each position of a run the keys that may come next
            // are the run's from that position on (KeyTrie.child(of:byte:from:)).
            var first = 0
            while first <= properties.count {
                var last = first
                while last < properties.count, properties[last].isOptional { last += 1 }
                let closes = last == properties.count
                for emitted in [false, true] {
                    entries.removeAll(keepingCapacity: true)
                    let close: [UInt8] = (emitted ? newline : []) + [UInt8(ascii: "}")]
                    var closed = !closes || (requiresAProperty && !emitted)
                    for index in order where index >= first && index <= last {
                        let key = emitted ? keysAfterComma[index] : keys[index]
                        if !closed, close.lexicographicallyPrecedes(key) {
                            entries.append((close, .close))
                            closed = true
                        }
                        entries.append((key, .property(Int32(index))))
                    }
                    if !closed { entries.append((close, .close)) }
                    for position in first...last { trieAt[position * 2 + (emitted ? 1 : 0)] = Int32(tries.count) }
                    tries.append(KeyTrie(sorted: entries))
                }
                first = last + 1
            }
            grammar.objects[shape].trieAt = trieAt
            grammar.objects[shape].keyTries = tries
            var tail = properties.count
            while tail > 0, properties[tail - 1].isOptional { tail -= 1 }
            grammar.objects[shape].optionalTail = Int32(tail)
        }
    }
}
