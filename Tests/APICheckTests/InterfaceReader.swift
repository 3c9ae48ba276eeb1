// Reads a `.swiftinterface` file into declarations in the normalized form of
// the reference list (Tests/APICheckTests/apple27-declarations.tsv): one row
// per declaration, keyed by its container and a signature in which module
// qualifiers, parameter names, default values, access modifiers and
// attributes that do not change how code calls the declaration are removed,
// and generic parameters of functions are renamed T0, T1, ….

import Foundation

/// One public declaration: where it lives and what it looks like.
struct Declaration: Hashable, CustomStringConvertible {
    /// `(module)` for top-level declarations, otherwise the dotted path of
    /// the enclosing type (`LanguageModelSession.ResponseStream`).
    var container: String
    /// The normalized signature (`func respond(to: Prompt) async throws -> …`).
    var signature: String

    var description: String { "\(container) | \(signature)" }
}

enum InterfaceReader {
    /// Modules whose qualifiers the reference list leaves out.
    static let qualifiedModules = [
        "FoundationModels", "FoundationEssentials", "Foundation", "Swift", "_Concurrency",
        "Observation", "_StringProcessing", "Synchronization", "Dispatch", "GuidedGeneration",
    ]

    /// Every declaration in `interface`, in order.
    static func declarations(in interface: String) -> [Declaration] {
        let lines = interface.split(separator: "\n", omittingEmptySubsequences: true)
            .map { String($0).trimmingCharacters(in: .whitespaces) }
        // Two passes: the first learns each generic type's requirements, so
        // members declared in its extensions carry them (as the reference
        // prints them) wherever the type itself is declared.
        var first = Reader()
        for line in lines { first.consume(line) }
        var reader = Reader()
        reader.typeRequirements = first.typeRequirements
        for line in lines { reader.consume(line) }
        return reader.output
    }
}

// MARK: - The line reader

private struct Reader {
    enum Frame {
        /// A type body: its path and its requirements (for its members).
        case type(path: String, requirements: [String], isProtocol: Bool)
        /// An extension body.
        case `extension`(path: String, requirements: [String])
        /// The accessor block of a property or subscript.
        case accessors(pending: PendingStorage)
        /// A body whose content is not API (an inlinable function's).
        case skipped
        /// An unavailable extension or type: nothing inside counts.
        case unavailable
    }

    /// A property or subscript waiting for its accessors.
    struct PendingStorage {
        var container: String
        var head: String
        var requirements: [String]
        var getter = "get"
        var hasSetter = false
        var setterPrefix = ""
    }

    var frames: [Frame] = []
    var output: [Declaration] = []
    /// The requirements of each generic type, by path.
    var typeRequirements: [String: [String]] = [:]
    /// Attributes seen on lines of their own, for the next declaration.
    var pendingAttributes: [String] = []

    var isUnavailableContext: Bool {
        frames.contains { if case .unavailable = $0 { true } else { false } }
    }

    /// The container path and the requirements members inherit.
    var context: (path: String, requirements: [String], inProtocol: Bool) {
        var path = "(module)"
        var requirements: [String] = []
        var inProtocol = false
        for frame in frames {
            switch frame {
            case .type(let typePath, let typeRequirements, let isProtocol):
                path = typePath
                requirements += typeRequirements
                inProtocol = isProtocol
            case .extension(let extensionPath, let extensionRequirements):
                path = extensionPath
                requirements += (typeRequirements[extensionPath] ?? []) + extensionRequirements
                inProtocol = false
            case .accessors, .skipped, .unavailable:
                break
            }
        }
        return (path, requirements, inProtocol)
    }

    mutating func consume(_ line: String) {
        if line.isEmpty || line.hasPrefix("//") || line.hasPrefix("#") || line.hasPrefix("import ") { return }

        // Inside an accessor block or a skipped body.
        if let last = frames.last {
            switch last {
            case .accessors(var pending):
                if line == "}" {
                    frames.removeLast()
                    emitStorage(pending)
                } else {
                    accessor(line, into: &pending)
                    frames[frames.count - 1] = .accessors(pending: pending)
                }
                return
            case .skipped:
                if line.hasSuffix("{") { frames.append(.skipped) }
                if line.hasPrefix("}") { frames.removeLast() }
                return
            default:
                break
            }
        }

        if line == "}" {
            if !frames.isEmpty { frames.removeLast() }
            return
        }

        var (attributes, rest) = Syntax.splitLeadingAttributes(line)
        attributes = pendingAttributes + attributes
        if rest.isEmpty {
            pendingAttributes = attributes
            return
        }
        pendingAttributes = []
        let unavailable = attributes.contains { $0.hasPrefix("@available(*, unavailable") || $0.hasPrefix("@available(*,unavailable") }
        let opensBody = rest.hasSuffix("{")
        let emptyBody = rest.hasSuffix("{}")
        if emptyBody {
            rest = String(rest.dropLast(2)).trimmingCharacters(in: .whitespaces)
        } else if opensBody {
            rest = String(rest.dropLast()).trimmingCharacters(in: .whitespaces)
        }

        let (modifiers, body) = Syntax.splitModifiers(rest)
        // An unavailable extension is a conformance the type does not have
        // (`@available(*, unavailable) extension X: Sendable {}`); an
        // unavailable member is still a declaration code can name.
        if isUnavailableContext || (unavailable && Syntax.keyword(of: body) == "extension") {
            if opensBody && !emptyBody { frames.append(.unavailable) }
            return
        }

        guard let keyword = Syntax.keyword(of: body) else {
            if opensBody && !emptyBody { frames.append(.skipped) }
            return
        }
        let isStatic = modifiers.contains("static") || modifiers.contains("class")
        let setterRestricted = modifiers.contains { $0.hasSuffix("(set)") }
        let context = self.context

        switch keyword {
        case "struct", "class", "enum", "protocol", "actor":
            let decl = TypeDeclaration(body, keyword: keyword)
            let path = context.path == "(module)" ? decl.name : "\(context.path).\(decl.name)"
            let kept =
                attributes
                .map { $0 == "@_functionBuilder" ? "@resultBuilder" : $0 }
                .filter { $0 == "@resultBuilder" || $0 == "@propertyWrapper" }
            var signature = (kept + [keyword == "actor" ? "actor" : keyword, decl.nameWithGenerics]).joined(separator: " ")
            if !decl.requirements.isEmpty {
                signature += " where " + Syntax.sortedRequirements(decl.requirements)
            }
            emit(context.path, signature)
            if keyword != "protocol", !decl.requirements.isEmpty { typeRequirements[path] = decl.requirements }
            for conformance in decl.inherited {
                emit(path, ": \(conformance)")
            }
            if opensBody && !emptyBody {
                frames.append(.type(path: path, requirements: keyword == "protocol" ? [] : decl.requirements, isProtocol: keyword == "protocol"))
            }
        case "extension":
            let decl = ExtensionDeclaration(body)
            for conformance in decl.inherited {
                var row = ": \(conformance)"
                if !decl.requirements.isEmpty { row += " where " + Syntax.sortedRequirements(decl.requirements) }
                emit(decl.path, row)
            }
            if opensBody && !emptyBody {
                frames.append(.extension(path: decl.path, requirements: decl.requirements))
            }
        case "var", "let":
            var (declaration, inlineAccessors) = Syntax.splitInlineAccessors(body)
            var head = Syntax.normalizeTypes(declaration)
            if keyword == "let" { head = "var" + head.dropFirst(3) }
            if isStatic { head = "static " + head }
            var pending = PendingStorage(container: context.path, head: head, requirements: context.requirements)
            if let inlineAccessors {
                for accessorText in Syntax.splitAccessors(inlineAccessors) { accessor(accessorText, into: &pending) }
                emitStorage(pending)
            } else if opensBody && !emptyBody {
                frames.append(.accessors(pending: pending))
            } else {
                // A stored property: settable unless it is a `let` or its
                // setter is less visible.
                pending.hasSetter = keyword == "var" && !setterRestricted
                emitStorage(pending)
            }
        case "subscript":
            let (declaration, inlineAccessors) = Syntax.splitInlineAccessors(body)
            var head = Syntax.normalizeCallable(declaration, keyword: "subscript")
            if isStatic { head = "static " + head }
            let (withoutWhere, ownRequirements) = Syntax.splitTrailingWhere(head)
            var pending = PendingStorage(container: context.path, head: withoutWhere, requirements: context.requirements + ownRequirements)
            if let inlineAccessors {
                for accessorText in Syntax.splitAccessors(inlineAccessors) { accessor(accessorText, into: &pending) }
                emitStorage(pending)
            } else if opensBody && !emptyBody {
                frames.append(.accessors(pending: pending))
            } else {
                emitStorage(pending)
            }
        case "func", "init", "macro":
            var signature = Syntax.normalizeCallable(body, keyword: keyword)
            if keyword == "func" {
                if modifiers.contains("mutating") { signature = "mutating " + signature }
                if isStatic { signature = "static " + signature }
            }
            emitWithRequirements(context.path, signature, context.requirements)
            if opensBody && !emptyBody { frames.append(.skipped) }
        case "case":
            for element in Syntax.splitTopLevel(String(body.dropFirst(5)), separator: ",") {
                emit(context.path, "case " + Syntax.normalizeTypes(element.trimmingCharacters(in: .whitespaces)))
            }
        case "typealias":
            let signature = Syntax.normalizeTypes(body)
            emitWithRequirements(context.path, signature, context.requirements)
        case "associatedtype":
            emit(context.path, Syntax.normalizeAssociatedType(body))
        default:
            if opensBody && !emptyBody { frames.append(.skipped) }
        }
    }

    mutating func accessor(_ line: String, into pending: inout PendingStorage) {
        let (_, text) = Syntax.splitLeadingAttributes(line)
        let words = text.split(separator: " ").map(String.init)
        guard let first = words.first else { return }
        switch first {
        case "get", "_read", "unsafeAddress":
            pending.getter = first == "get" ? text : "get"
        case "mutating" where words.dropFirst().first == "get":
            pending.getter = text
        case "set", "_modify", "unsafeMutableAddress":
            pending.hasSetter = true
        case "nonmutating":
            pending.hasSetter = true
            pending.setterPrefix = "nonmutating "
        default:
            break
        }
    }

    mutating func emitStorage(_ pending: PendingStorage) {
        var accessors = pending.getter
        if pending.hasSetter { accessors += " \(pending.setterPrefix)set" }
        let signature = "\(pending.head) { \(accessors) }"
        emitWithRequirements(pending.container, signature, pending.requirements)
    }

    mutating func emitWithRequirements(_ container: String, _ signature: String, _ inherited: [String]) {
        let (head, own) = Syntax.splitTrailingWhere(signature)
        let requirements = inherited + own
        emit(container, requirements.isEmpty ? head : head + " where " + Syntax.sortedRequirements(requirements))
    }

    mutating func emit(_ container: String, _ signature: String) {
        output.append(Declaration(container: container, signature: Syntax.collapseSpaces(signature)))
    }
}

// MARK: - Type and extension headers

private struct TypeDeclaration {
    var name: String
    var nameWithGenerics: String
    var inherited: [String]
    var requirements: [String]

    init(_ text: String, keyword: String) {
        var rest = Syntax.normalizeTypes(String(text.dropFirst(keyword.count)).trimmingCharacters(in: .whitespaces))
        let (head, requirements) = Syntax.splitTrailingWhere(rest)
        self.requirements = requirements
        rest = head
        var inherited: [String] = []
        if let colon = Syntax.topLevelIndex(of: ":", in: rest) {
            inherited = Syntax.splitTopLevel(String(rest[rest.index(after: colon)...]), separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            rest = String(rest[..<colon]).trimmingCharacters(in: .whitespaces)
        }
        self.inherited = inherited
        self.nameWithGenerics = rest
        self.name = String(rest.prefix { $0 != "<" }).trimmingCharacters(in: .whitespaces)
    }
}

private struct ExtensionDeclaration {
    var path: String
    var inherited: [String]
    var requirements: [String]

    init(_ text: String) {
        let declaration = TypeDeclaration(text, keyword: "extension")
        self.path = declaration.name
        self.inherited = declaration.inherited
        self.requirements = declaration.requirements
    }
}

// MARK: - Text helpers

enum Syntax {
    static let modifierWords: Set<String> = [
        "public", "open", "package", "internal", "final", "convenience", "required", "override",
        "dynamic", "optional", "indirect", "lazy", "weak", "unowned", "static", "class", "mutating",
        "nonmutating", "prefix", "postfix", "infix", "nonisolated", "distributed", "__consuming",
    ]

    static let declarationKeywords: Set<String> = [
        "struct", "class", "enum", "protocol", "actor", "extension", "var", "let", "func", "init",
        "init?", "init!", "subscript", "case", "typealias", "associatedtype", "macro", "deinit",
        "operator", "precedencegroup",
    ]

    /// A requirement's accessors written on its line (`var x: T { get set }`):
    /// the declaration without them, and the text between the braces.
    static func splitInlineAccessors(_ text: String) -> (String, String?) {
        guard text.hasSuffix("}"), let open = text.lastIndex(of: "{") else { return (text, nil) }
        let inner = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        let declaration = String(text[..<open]).trimmingCharacters(in: .whitespaces)
        // The where clause of a subscript requirement follows its accessors.
        return (declaration, inner.trimmingCharacters(in: .whitespaces))
    }

    /// `get async throws set` → [`get async throws`, `set`].
    static func splitAccessors(_ text: String) -> [String] {
        var accessors: [String] = []
        for word in text.split(separator: " ").map(String.init) {
            if ["get", "set", "_modify", "_read", "mutating", "nonmutating"].contains(word)
                && !(accessors.last.map { ["mutating", "nonmutating"].contains($0) } ?? false)
            {
                accessors.append(word)
            } else if !accessors.isEmpty {
                accessors[accessors.count - 1] += " " + word
            }
        }
        return accessors
    }

    /// Leading `@attribute` / `@attribute(...)` tokens, and the rest.
    static func splitLeadingAttributes(_ line: String) -> ([String], String) {
        var attributes: [String] = []
        var rest = Substring(line)
        while rest.first == "@" {
            var end = rest.index(after: rest.startIndex)
            while end < rest.endIndex, rest[end].isLetter || rest[end].isNumber || rest[end] == "_" || rest[end] == "." {
                end = rest.index(after: end)
            }
            if end < rest.endIndex, rest[end] == "(" {
                end = matchingClose(in: rest, from: end).map { rest.index(after: $0) } ?? rest.endIndex
            }
            attributes.append(String(rest[..<end]))
            rest = rest[end...].drop { $0 == " " }
        }
        return (attributes, String(rest))
    }

    /// Leading modifiers (`public`, `static`, `nonisolated(nonsending)`, `private(set)`, …), and the rest.
    static func splitModifiers(_ text: String) -> ([String], String) {
        var modifiers: [String] = []
        var rest = Substring(text)
        while true {
            let word = rest.prefix { $0.isLetter || $0 == "_" }
            guard !word.isEmpty else { break }
            var end = word.endIndex
            if end < rest.endIndex, rest[end] == "(" {
                guard let close = matchingClose(in: rest, from: end) else { break }
                let argument = rest[rest.index(after: end)..<close]
                // `private(set)`, `nonisolated(nonsending)`, `nonisolated(unsafe)`.
                guard ["set", "nonsending", "unsafe"].contains(String(argument)) else { break }
                end = rest.index(after: close)
            } else if !modifierWords.contains(String(word)) && !["private", "fileprivate"].contains(String(word)) {
                break
            }
            // `class` is a modifier only when a declaration keyword follows.
            if word == "class" {
                let after = rest[end...].drop { $0 == " " }
                let next = after.prefix { $0.isLetter || $0 == "?" || $0 == "!" }
                if !declarationKeywords.contains(String(next)) || next == "class" { break }
            }
            modifiers.append(String(rest[..<end]))
            rest = rest[end...].drop { $0 == " " }
        }
        return (modifiers, String(rest))
    }

    static func keyword(of text: String) -> String? {
        let word = String(text.prefix { $0.isLetter || $0 == "?" || $0 == "!" })
        if word.hasPrefix("init") { return "init" }
        return declarationKeywords.contains(word) ? word : nil
    }

    /// Removes module qualifiers and backticks, prints `Codable` compositions
    /// the way the reference does, and drops `sending` (invisible to callers).
    static func normalizeTypes(_ text: String) -> String {
        var result = text.replacingOccurrences(of: "`", with: "")
        for module in InterfaceReader.qualifiedModules {
            result = result.replacingOccurrences(
                of: "(?<![A-Za-z0-9_.])\(module)\\.",
                with: "",
                options: .regularExpression
            )
        }
        result = result.replacingOccurrences(of: "@_opaqueReturnTypeOf\\([^)]*\\)\\s*__", with: "<opaque>", options: .regularExpression)
        result = result.replacingOccurrences(of: "(?<![A-Za-z0-9_])sending ", with: "", options: .regularExpression)
        result = result.replacingOccurrences(of: "Decodable & Encodable", with: "Codable")
        // How a conformance is checked is not part of the API.
        result = result.replacingOccurrences(of: "@unchecked ", with: "")
        return result
    }

    /// A function, initializer, subscript or macro: parameter names dropped
    /// (labels kept), defaults as `_`, generic parameters renamed T0, T1, …,
    /// `= #externalMacro(…)` removed.
    static func normalizeCallable(_ text: String, keyword: String) -> String {
        var text = normalizeTypes(text)
        if keyword == "macro", let range = text.range(of: " = #externalMacro("),
            let close = matchingClose(in: Substring(text), from: text.index(before: range.upperBound))
        {
            // The definition goes; a where clause after it stays.
            text = String(text[..<range.lowerBound]) + String(text[text.index(after: close)...])
        }
        // Name (and generic clause) up to the parameter clause.
        guard let open = firstParameterClauseOpen(in: text), let close = matchingClose(in: Substring(text), from: open) else {
            return text
        }
        let head = String(text[..<open])
        let parameters = String(text[text.index(after: open)..<close])
        let tail = String(text[text.index(after: close)...])

        let normalizedParameters = splitTopLevel(parameters, separator: ",")
            .map { normalizeParameter($0.trimmingCharacters(in: .whitespaces), isSubscript: keyword == "subscript") }
            .filter { !$0.isEmpty }
            .joined(separator: ", ")

        // Generic parameters of the declaration itself, renamed everywhere
        // below (the generic clause included).
        var renames: [(String, String)] = []
        if let lt = head.firstIndex(of: "<"), let gt = matchingClose(in: Substring(head), from: lt) {
            let names = splitTopLevel(String(head[head.index(after: lt)..<gt]), separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            for (index, entry) in names.enumerated() {
                let bare = (entry.hasPrefix("each ") ? entry.dropFirst(5) : Substring(entry)).prefix { $0 != ":" && $0 != " " }
                renames.append((String(bare), "T\(index)"))
            }
        }
        var result = head + "(" + normalizedParameters + ")" + tail
        // Two passes through placeholders, so a parameter already named
        // `T1` is not renamed twice.
        for (index, rename) in renames.enumerated() {
            result = result.replacingOccurrences(
                of: "(?<![A-Za-z0-9_.])\(NSRegularExpression.escapedPattern(for: rename.0))(?![A-Za-z0-9_])",
                with: "\u{1}\(index)\u{1}",
                options: .regularExpression
            )
        }
        for (index, rename) in renames.enumerated() {
            result = result.replacingOccurrences(of: "\u{1}\(index)\u{1}", with: rename.1)
        }
        return result
    }

    /// The `(` that opens the parameter clause: the first one after the
    /// name and its generic clause.
    static func firstParameterClauseOpen(in text: String) -> String.Index? {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "<" { depth += 1 }
            if character == ">" { depth -= 1 }
            if character == "(" && depth == 0 { return index }
            index = text.index(after: index)
        }
        return nil
    }

    static func normalizeParameter(_ parameter: String, isSubscript: Bool) -> String {
        guard let colon = topLevelIndex(of: ":", in: parameter) else { return parameter }
        let (attributes, names) = splitLeadingAttributes(String(parameter[..<colon]).trimmingCharacters(in: .whitespaces))
        var typeAndDefault = String(parameter[parameter.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        if let equals = topLevelIndex(of: "=", in: typeAndDefault) {
            typeAndDefault = String(typeAndDefault[..<equals]).trimmingCharacters(in: .whitespaces) + " = _"
        }
        let words = names.split(separator: " ").map(String.init)
        let label: String
        if words.count >= 2 {
            label = words[0]
        } else {
            label = isSubscript ? "_" : (words.first ?? "_")
        }
        return (attributes + [label + ":"]).joined(separator: " ") + " " + typeAndDefault
    }

    static func normalizeAssociatedType(_ text: String) -> String {
        var rest = normalizeTypes(String(text.dropFirst("associatedtype".count)).trimmingCharacters(in: .whitespaces))
        var requirements: [String] = []
        var defaultType: String?
        let (head, whereRequirements) = splitTrailingWhere(rest)
        rest = head
        if let equals = topLevelIndex(of: "=", in: rest) {
            defaultType = String(rest[rest.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            rest = String(rest[..<equals]).trimmingCharacters(in: .whitespaces)
        }
        var name = rest
        if let colon = topLevelIndex(of: ":", in: rest) {
            name = String(rest[..<colon]).trimmingCharacters(in: .whitespaces)
            for inherited in splitTopLevel(String(rest[rest.index(after: colon)...]), separator: ",") {
                let trimmed = inherited.trimmingCharacters(in: .whitespaces)
                // `A & B` composes two requirements.
                for part in trimmed.components(separatedBy: " & ") {
                    requirements.append("\(name) : \(part)")
                }
            }
        }
        requirements += whereRequirements
        var signature = "associatedtype \(name)"
        if !requirements.isEmpty { signature += " where " + sortedRequirements(requirements) }
        if let defaultType { signature += " = \(defaultType)" }
        return signature
    }

    /// Splits off a top-level trailing `where` clause into its requirements.
    static func splitTrailingWhere(_ text: String) -> (String, [String]) {
        guard let range = topLevelWhere(in: text) else { return (text, []) }
        let head = String(text[..<range.lowerBound]).trimmingCharacters(in: .whitespaces)
        let clause = String(text[range.upperBound...])
        let requirements = splitTopLevel(clause, separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return (head, requirements)
    }

    static func topLevelWhere(in text: String) -> Range<String.Index>? {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if "([<{".contains(character) { depth += 1 }
            if ")]>}".contains(character), depth > 0, !(character == ">" && text[..<index].hasSuffix("-")) { depth -= 1 }
            if depth == 0, text[index...].hasPrefix(" where ") {
                return index..<text.index(index, offsetBy: 7)
            }
            index = text.index(after: index)
        }
        return nil
    }

    static func sortedRequirements(_ requirements: [String]) -> String {
        Array(Set(requirements.map { collapseSpaces($0) })).sorted().joined(separator: ", ")
    }

    /// The index of `character` at nesting depth 0 (outside (), [], <>, {}).
    static func topLevelIndex(of character: Character, in text: String) -> String.Index? {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            let current = text[index]
            if depth == 0, current == character { return index }
            if "([<{".contains(current) { depth += 1 }
            if ")]>}".contains(current), depth > 0, !(current == ">" && text[..<index].hasSuffix("-")) { depth -= 1 }
            index = text.index(after: index)
        }
        return nil
    }

    static func splitTopLevel(_ text: String, separator: Character) -> [String] {
        var parts: [String] = []
        var depth = 0
        var current = ""
        var previous: Character = " "
        for character in text {
            if "([<{".contains(character) { depth += 1 }
            if ")]>}".contains(character), depth > 0, !(character == ">" && previous == "-") { depth -= 1 }
            if character == separator && depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { parts.append(current) }
        return parts
    }

    static func matchingClose(in text: Substring, from open: Substring.Index) -> Substring.Index? {
        let opening = text[open]
        let closing: Character = opening == "(" ? ")" : opening == "<" ? ">" : opening == "[" ? "]" : "}"
        var depth = 0
        var index = open
        var previous: Character = " "
        while index < text.endIndex {
            let character = text[index]
            if character == opening { depth += 1 }
            if character == closing, !(closing == ">" && previous == "-") {
                depth -= 1
                if depth == 0 { return index }
            }
            previous = character
            index = text.index(after: index)
        }
        return nil
    }

    static func matchingClose(in text: String, from open: String.Index) -> String.Index? {
        matchingClose(in: Substring(text), from: open)
    }

    static func collapseSpaces(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
