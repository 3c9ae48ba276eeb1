import GuidedGeneration

extension GenerationSchema {
    /// The description, one field a line, that takes at most `budget`
    /// tokens (as `tokenCount` counts them) whatever the schema's size
    /// (``SchemaPromptDetail/bounded``).
    ///
    /// Exists because the shorter levels shrink a description by a fixed
    /// factor and a real-world schema can be any size: the Washington Post's
    /// audio schema (MaskBench `wp_0`) describes to 12,968 tokens whole,
    /// minutes of prefill on a CPU for an answer the decoder enforces
    /// anyway, and Kubernetes' job spec (`kb_484`) to 31,226. The budget is filled by what helps the
    /// model write plausible content most, in this order: the top-level
    /// fields in order with their types and whether they are optional; their
    /// descriptions (a sentence, then a clause, before none); each named
    /// definition once, collapsed and then field by field; the definitions'
    /// descriptions; then inline objects, one level deeper at a time, a
    /// shape already described given by the name of its first occurrence.
    /// What does not fit is summarised ("an object with 14 fields", "… and
    /// 30 more fields").
    ///
    /// The preamble and the root's first line are always sent: a budget
    /// smaller than they are is exceeded by them alone.
    package func boundedPromptDescription(budget: Int, tokenCount: (String) -> Int) -> String {
        withoutActuallyEscaping(tokenCount) { tokenCount in
            let fill = BoundedSchemaFill(schema: self, tokenCount: tokenCount)
            var target = budget
            var text = fill.render(budget: target)
            // Lines are counted one at a time; the whole may tokenize a little
            // differently. Tighten until the whole fits (or nothing is left to drop).
            for _ in 0..<8 {
                let overshoot = tokenCount(text) - budget
                guard overshoot > 0, target > 0 else { break }
                target -= overshoot
                text = fill.render(budget: target)
            }
            return text
        }
    }
}

/// One filling of a budget (``GenerationSchema/boundedPromptDescription(budget:tokenCount:)``):
/// a tree of lines, grown step by step, each step kept only while the
/// lines shown fit. A reference type because the steps mutate lines deep
/// in the tree; it never leaves this file.
private final class BoundedSchemaFill {
    /// A line of the description and, once expanded, the fields under it.
    final class Line {
        /// Two spaces each.
        let indent: Int
        /// `"name" (optional): `, `Name: `, or empty (the root).
        let label: String
        /// The value's schema; nil for a line of fixed text.
        let node: SchemaNode?
        /// The object expanding this line shows (the node itself, a list's
        /// items, a nullable object); nil when there is none.
        let object: ObjectNode?
        /// The source description (the property's, else the definition's).
        let description: String?
        /// How the model is told about this line elsewhere (`"a.b"`, a definition's name).
        let path: String
        var fixed: String?
        var shownDescription: String?
        var expanded = false
        /// An object already described elsewhere: the path that describes it.
        var sameAs: String?
        var children: [Line] = []
        var childrenShown = 0

        init(indent: Int, label: String, node: SchemaNode?, description: String?, path: String, fixed: String? = nil) {
            self.indent = indent
            self.label = label
            self.node = node
            self.object = node.flatMap(Self.expandable)
            self.description = description
            self.path = path
            self.fixed = fixed
        }

        /// The one object with properties a value of `node` is (an object,
        /// a list of them, an object or null); nil for none or several.
        static func expandable(_ node: SchemaNode) -> ObjectNode? {
            switch node {
            case .object(let object): return object.properties.isEmpty ? nil : object
            case .array(let array): return expandable(array.items)
            case .anyOf(let choices):
                let objects = choices.compactMap(expandable)
                return objects.count == 1 ? objects[0] : nil
            default: return nil
            }
        }
    }

    let schema: GenerationSchema
    let countTokens: (String) -> Int
    /// Tokens the counter adds to any text (a BOS token), not the line's.
    let overhead: Int
    var counted: [String: Int] = [:]

    /// Definitions written where they are used: those with no object and
    /// no reference in them (`traits_trait_id_json: a string`), whose name
    /// tells the model less than the field's own.
    let inlined: [String: SchemaDefinition]

    init(schema: GenerationSchema, tokenCount: @escaping (String) -> Int) {
        self.schema = schema
        self.countTokens = tokenCount
        self.overhead = tokenCount("")
        var inlined: [String: SchemaDefinition] = [:]
        for definition in schema.definitions where Self.isSimple(definition.node) { inlined[definition.name] = definition }
        self.inlined = inlined
    }

    static func isSimple(_ node: SchemaNode) -> Bool {
        switch node {
        case .object, .reference: false
        case .array(let array): array.prefixItems.allSatisfy(isSimple) && isSimple(array.items)
        case .anyOf(let choices): choices.allSatisfy(isSimple)
        default: true
        }
    }

    /// `node` with references to ``inlined`` definitions replaced by them.
    func resolved(_ node: SchemaNode) -> SchemaNode {
        switch node {
        case .reference(let name): return inlined[name]?.node ?? node
        case .array(var array):
            array.items = resolved(array.items)
            array.prefixItems = array.prefixItems.map(resolved)
            return .array(array)
        case .anyOf(let choices): return .anyOf(choices.map(resolved))
        default: return node
        }
    }

    /// The description of the definition `node` is (or is a list of): a
    /// field given by reference has none of its own.
    func referencedDescription(_ node: SchemaNode) -> String? {
        switch node {
        case .reference(let name): schema.definition(named: name)?.description
        case .array(let array): referencedDescription(array.items)
        default: nil
        }
    }

    /// Tokens a line takes with its newline (memoized: the fill retries
    /// many arrangements of the same lines).
    func cost(_ text: String) -> Int {
        if let known = counted[text] { return known }
        let count = max(0, countTokens(text) - overhead) + 1
        counted[text] = count
        return count
    }

    // MARK: Rendering

    func text(of line: Line) -> String {
        let pad = String(repeating: "  ", count: line.indent)
        if let fixed = line.fixed { return pad + fixed }
        guard let node = line.node else { return pad + line.label }
        var summary: String
        if let sameAs = line.sameAs {
            summary = SchemaPromptWriter.compact(node, expanding: line.object, phrase: "an object with the same fields as \(sameAs)")
        } else if line.expanded, let object = line.object {
            let note = line.shownDescription.map { " (\(SchemaPromptWriter.lowercasingFirst($0)))" } ?? ""
            summary =
                SchemaPromptWriter.compact(node, expanding: object, phrase: "an object\(note) with these fields")
                + (line.indent == 0 ? ", in this order" : "") + (object.requiresAProperty ? ", at least one of them" : "") + ":"
        } else {
            summary = SchemaPromptWriter.compact(node)
        }
        if line.label.isEmpty, let first = summary.first { summary = first.uppercased() + summary.dropFirst() }
        let description = line.expanded && line.sameAs == nil ? nil : line.shownDescription
        return pad + line.label + summary + (description.map { ". \($0)" } ?? "")
    }

    func lines(_ line: Line, into output: inout [String]) {
        output.append(text(of: line))
        guard line.expanded, line.sameAs == nil else { return }
        for child in line.children.prefix(line.childrenShown) { lines(child, into: &output) }
        let hidden = line.children.count - line.childrenShown
        if hidden > 0 { output.append(moreLine(hidden, indent: line.indent + 1)) }
    }

    func moreLine(_ hidden: Int, indent: Int) -> String {
        String(repeating: "  ", count: indent) + "… and \(hidden) more field\(hidden == 1 ? "" : "s")"
    }

    func total(_ top: [Line]) -> Int {
        var output: [String] = []
        for line in top { lines(line, into: &output) }
        return output.reduce(0) { $0 + cost($1) }
    }

    // MARK: Filling

    func render(budget: Int) -> String {
        var top: [Line] = [
            Line(
                indent: 0, label: "", node: nil, description: nil, path: "",
                fixed: "Respond with JSON only, no other text, in this shape:")
        ]
        /// Applies `change`; undoes it with `undo` when the lines no longer fit.
        var limit = budget
        func attempt(_ change: () -> Void, undo: () -> Void) -> Bool {
            change()
            if total(top) <= limit { return true }
            undo()
            return false
        }
        /// A sentence (80 characters), else a clause (40), else nothing.
        func describe(_ line: Line) {
            guard let description = line.description, line.shownDescription == nil else { return }
            for limit in [80, 40] {
                let short = SchemaPromptWriter.clipped(description, to: limit)
                if attempt({ line.shownDescription = short }, undo: { line.shownDescription = nil }) { return }
            }
        }
        /// Shows all of `line`'s fields, or none.
        func expand(_ line: Line) -> Bool {
            guard let object = line.object, !line.expanded, line.sameAs == nil else { return false }
            let children = fields(of: object, indent: line.indent + 1, parent: line.path)
            return attempt(
                {
                    line.expanded = true
                    line.children = children
                    line.childrenShown = children.count
                },
                undo: {
                    line.expanded = false
                    line.children = []
                    line.childrenShown = 0
                })
        }

        // 1. The root: its first line, then its fields one by one, in order.
        let (first, later) = rootLines()
        top += first
        var roots = first
        var described: [ObjectNode: String] = [:]
        // The other shapes' lines, up to a quarter of the budget, are kept
        // room for: that a second shape exists matters more than the first
        // one's last fields.
        limit = budget - min(budget / 4, later.reduce(0) { $0 + cost(text(of: $1)) })
        if let root = roots.first(where: { $0.object != nil }), let object = root.object {
            root.expanded = true
            root.children = fields(of: object, indent: root.indent + 1, parent: root.path)
            described[object] = root.path.isEmpty ? "the answer" : root.path
            while root.childrenShown < root.children.count,
                attempt({ root.childrenShown += 1 }, undo: { root.childrenShown -= 1 })
            {}
        }
        var hiddenShapes = 0
        limit = budget
        for line in later {
            if attempt({ top.append(line) }, undo: { top.removeLast() }) { roots.append(line) } else { hiddenShapes += 1 }
        }
        if hiddenShapes > 0 {
            let more = Line(indent: 0, label: "", node: nil, description: nil, path: "", fixed: "… and \(hiddenShapes) more shapes")
            _ = attempt({ top.append(more) }, undo: { top.removeLast() })
        }
        // 2. What the root and its fields are for.
        for root in roots { describe(root) }
        for root in roots { for child in root.children.prefix(root.childrenShown) { describe(child) } }
        // 3. The other shapes' fields; then each definition the lines shown
        // reference, once, nearest first: collapsed, then its fields (whose
        // references follow in turn).
        for line in roots where !line.expanded {
            if let object = line.object, let path = described[object] {
                _ = attempt({ line.sameAs = path }, undo: { line.sameAs = nil })
            } else if expand(line), let object = line.object {
                described[object] = line.path
            }
        }
        var shownDefinitions: [Line] = []
        var seen: Set<String> = schema.isNamedType ? [schema.name] : []
        var queue = roots.flatMap { root in
            root.expanded
                ? root.children.prefix(root.childrenShown).flatMap { $0.node.map(Self.references) ?? [] } : root.node.map(Self.references) ?? []
        }
        var next = 0
        while next < queue.count {
            let name = queue[next]
            next += 1
            guard seen.insert(name).inserted, inlined[name] == nil, let definition = schema.definition(named: name) else { continue }
            let line = Line(
                indent: 0, label: SchemaPromptWriter.clippedName(name) + ": ", node: definition.node,
                description: definition.description, path: name)
            guard attempt({ top.append(line) }, undo: { top.removeLast() }) else { continue }
            shownDefinitions.append(line)
            if let object = line.object, let path = described[object] {
                _ = attempt({ line.sameAs = path }, undo: { line.sameAs = nil })
            } else if expand(line) {
                if let object = line.object { described[object] = line.path }
                queue += line.children.flatMap { $0.node.map(Self.references) ?? [] }
            } else if line.object == nil {
                // A choice of named types (`one of: A | B | C`): each of them next.
                queue += Self.references(in: definition.node)
            }
        }
        // 4. What the definitions and their fields are for.
        for line in shownDefinitions {
            describe(line)
            for child in line.children.prefix(line.childrenShown) { describe(child) }
        }
        // 5. Inline objects, a level at a time; a shape already shown by name.
        var level = (roots + shownDefinitions).flatMap { $0.expanded ? Array($0.children.prefix($0.childrenShown)) : [] }
        for _ in 0..<4 where !level.isEmpty {
            var next: [Line] = []
            for line in level {
                guard let object = line.object else { continue }
                if let path = described[object] {
                    _ = attempt({ line.sameAs = path }, undo: { line.sameAs = nil })
                } else if expand(line) {
                    described[object] = line.path
                    for child in line.children { describe(child) }
                    next += line.children
                }
            }
            level = next
        }
        var output: [String] = []
        for line in top { lines(line, into: &output) }
        return output.joined(separator: "\n")
    }

    /// The root's lines: one for an object or a single value; for a choice
    /// of objects (a JSON Schema `oneOf` beside `properties` makes one per
    /// branch), one each, a branch with the same fields as an earlier one
    /// written as how it differs. `first` are always sent (up to the first
    /// object); `later`, the other branches, only as far as they fit.
    func rootLines() -> (first: [Line], later: [Line]) {
        guard case .anyOf(let choices) = schema.root, choices.count > 1,
            choices.contains(where: { Line.expandable($0) != nil })
        else {
            return ([Line(indent: 0, label: "", node: schema.root, description: schema.typeDescription, path: "")], [])
        }
        var lines = [Line(indent: 0, label: "", node: nil, description: nil, path: "", fixed: "One of these \(choices.count) shapes:")]
        var earlier: [(ObjectNode, String)] = []
        for (index, choice) in choices.enumerated() {
            let name = "shape \(index + 1)"
            let label = "Shape \(index + 1): "
            if case .object(let object) = choice,
                let (firstName, difference) = earlier.lazy.compactMap({ earlier in
                    self.difference(from: earlier.0, to: object).map { (earlier.1, $0) }
                }).first
            {
                lines.append(
                    Line(
                        indent: 0, label: label, node: nil, description: nil, path: name,
                        fixed: label + "the fields of \(firstName)" + (difference.isEmpty ? "" : ", except that " + difference)))
                continue
            }
            if case .object(let object) = choice { earlier.append((object, name)) }
            lines.append(Line(indent: 0, label: label, node: choice, description: index == 0 ? schema.typeDescription : nil, path: name))
        }
        let split = (lines.firstIndex { $0.object != nil } ?? 0) + 1
        return (Array(lines[..<split]), Array(lines[split...]))
    }

    /// How `object` differs from `first`, in words: which fields it lacks
    /// or adds, which became required or optional, which differ in type;
    /// nil where that is more than eight differences (the object is then
    /// described on its own).
    func difference(from first: ObjectNode, to object: ObjectNode) -> String? {
        var notes: [String] = []
        let names = Set(object.properties.map(\.name))
        let earlier = Dictionary(first.properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func quoted(_ name: String) -> String { "\"\(SchemaPromptWriter.clipped(name, to: 60))\"" }
        for property in first.properties where !names.contains(property.name) { notes.append(quoted(property.name) + " is absent") }
        for property in object.properties {
            guard let before = earlier[property.name] else {
                notes.append(quoted(property.name) + " is added, " + SchemaPromptWriter.compact(resolved(property.node)))
                continue
            }
            if before.isOptional != property.isOptional {
                notes.append(quoted(property.name) + (property.isOptional ? " is optional" : " is required"))
            }
            if before.node != property.node { notes.append(quoted(property.name) + " is " + SchemaPromptWriter.compact(resolved(property.node))) }
        }
        return notes.count <= 8 ? notes.joined(separator: ", ") : nil
    }

    func fields(of object: ObjectNode, indent: Int, parent: String) -> [Line] {
        var lines = object.properties.map { property in
            let name = SchemaPromptWriter.clipped(property.name, to: 80)
            let label = "\"\(name)\"" + (property.isOptional ? " (optional)" : "") + ": "
            return Line(
                indent: indent, label: label, node: resolved(property.node),
                description: property.description ?? referencedDescription(property.node),
                path: "\"" + (parent.isEmpty || parent.hasPrefix("shape ") ? "" : parent.trimmingQuotes + ".") + name + "\"")
        }
        if let extras = SchemaPromptWriter.compactExtraKeys(of: object) {
            lines.append(Line(indent: indent, label: "", node: nil, description: nil, path: parent, fixed: "then " + extras))
        }
        return lines
    }

    /// The names `node` references, in the order they appear.
    static func references(in node: SchemaNode) -> [String] {
        switch node {
        case .reference(let name): return [name]
        case .object(let object):
            return object.properties.flatMap { references(in: $0.node) }
                + (object.additionalProperties.map(references) ?? [])
                + object.patternProperties.flatMap { references(in: $0.node) }
        case .array(let array): return array.prefixItems.flatMap(references) + references(in: array.items)
        case .anyOf(let choices): return choices.flatMap(references)
        default: return []
        }
    }
}

private extension String {
    /// `"a.b"` as `a.b`, to extend a path.
    var trimmingQuotes: String {
        hasPrefix("\"") && hasSuffix("\"") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}

extension SchemaPromptWriter {
    /// A value's schema in a few words, nested objects by their number of
    /// fields: each line of the bounded description costs about the same
    /// whatever lies under it. `expanding` is written as `phrase` (the
    /// object whose fields follow, or one described elsewhere).
    static func compact(_ node: SchemaNode, expanding: ObjectNode? = nil, phrase: String = "") -> String {
        switch node {
        case .object(let object):
            if let expanding, object == expanding { return phrase }
            if object.properties.isEmpty { return compactExtraKeys(of: object).map { "an object of " + $0 } ?? "an empty object" }
            let count = object.properties.count
            return "an object with \(count) field\(count == 1 ? "" : "s")" + (object.isOpen ? " and other keys" : "")
        case .string(let string):
            if let constant = string.constant { return "the string " + quotedClip(constant) }
            if let choices = string.choices {
                let shown = choices.count > 8 ? Array(choices.prefix(6)) : choices
                return "one of " + shown.map(quotedClip).joined(separator: ", ")
                    + (choices.count > shown.count ? ", … (\(choices.count) in all)" : "")
            }
            if let pattern = string.pattern { return pattern.count <= 60 ? "a string matching /\(pattern)/" : "a string matching a pattern" }
            if let format = string.format { return "a string (\(clipped(format, to: 40)))" }
            return "a string"
        case .array(let array):
            return "a list of \(count(array))items, each " + compact(array.items, expanding: expanding, phrase: phrase)
        case .anyOf(let choices):
            let shown = choices.count > 4 ? Array(choices.prefix(3)) : choices
            return "one of: " + shown.map { compact($0, expanding: expanding, phrase: phrase) }.joined(separator: " | ")
                + (choices.count > shown.count ? " | … (\(choices.count) in all)" : "")
        case .reference(let name):
            return clippedName(name)
        case .literal(let text):
            return "the value " + clipped(text, to: 60)
        default:
            return summary(of: node, detail: .outline)
        }
    }

    /// ``extraKeys(of:detail:)`` in a few words.
    static func compactExtraKeys(of object: ObjectNode) -> String? {
        if object.additionalProperties == .any { return "the keys and values the request asks for" }
        if let value = object.additionalProperties { return "other keys, each " + compact(value) }
        guard !object.patternProperties.isEmpty else { return nil }
        let shown = object.patternProperties.prefix(3).map { property in
            (property.pattern.count <= 40 ? "keys matching /\(property.pattern)/" : "keys matching a pattern") + ", each " + compact(property.node)
        }
        return shown.joined(separator: "; ") + (object.patternProperties.count > 3 ? "; other patterns" : "")
    }

    /// A definition's name, its end kept where it is long: generated names
    /// (`https:__kubernetesjsonschema_dev_…_io_k8s_api_core_v1_PodSpec`)
    /// differ at the end.
    static func clippedName(_ name: String) -> String {
        name.count <= 40 ? name : "…" + name.suffix(39)
    }

    /// `text`'s first line and sentence, at most `limit` characters (cut
    /// at a word where one ends in the last third, with "…").
    static func clipped(_ text: String, to limit: Int) -> String {
        var sentence = Substring(text.prefix { $0 != "\n" })
        if let end = sentence.range(of: ". ") { sentence = sentence[..<end.lowerBound] }
        guard sentence.count > limit else { return String(sentence) }
        var cut = sentence.prefix(limit - 1)
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) >= limit * 2 / 3 {
            cut = cut[..<space]
        }
        return String(cut) + "…"
    }

    private static func quotedClip(_ text: String) -> String {
        String(decoding: JSONStringEncoding.quoted(text.count > 40 ? String(text.prefix(39)) + "…" : text), as: UTF8.self)
    }
}
