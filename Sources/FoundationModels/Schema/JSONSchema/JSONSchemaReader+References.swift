import GuidedGeneration

/// `$ref` and definitions: pointers into the document (and its own base
/// URIs), each referenced schema named once and built once, and references
/// with siblings expanded in place without looping.
extension JSONSchemaReader {
    // MARK: - Definitions and references

    /// The definition name of the schema at `pointer`, queued to be built.
    mutating func reference(to pointer: String) -> String {
        if let name = names[pointer] { return name }
        var base: String
        if pointer == "#" {
            base = "Root"
        } else if let last = pointer.split(separator: "/").last {
            base = Self.unescape(String(last))
        } else {
            base = "Definition"
        }
        if base.isEmpty { base = "Definition" }
        var name = base
        var suffix = 2
        while usedNames.contains(name) {
            name = "\(base)_\(suffix)"
            suffix += 1
        }
        usedNames.insert(name)
        names[pointer] = name
        pending.append(pointer)
        return name
    }

    mutating func define(_ pointer: String) throws {
        guard let name = names[pointer] else { return }
        let target = try resolve(pointer, at: pointer)
        let node = try self.node(for: [Subschema(target, pointer)], at: pointer)
        var description: String?
        if case .structure(let properties, _) = target.kind, case .string(let text)? = properties["description"]?.kind {
            description = text
        }
        definitions.append(SchemaDefinition(name: name, description: description, node: node))
    }

    /// The local JSON pointer a `$ref` names (`#/definitions/A`), or a
    /// clear error for references outside the document.
    func pointer(of reference: String, at path: String) throws -> String {
        var reference = reference
        if let hash = reference.firstIndex(of: "#"), hash != reference.startIndex {
            let base = String(reference[..<hash])
            guard baseURIs.contains(base) || baseURIs.contains(base + "#") else {
                throw Self.corrupted("unsupported reference \"\(reference)\" at \(path)/$ref: only references inside the document are supported")
            }
            reference = String(reference[hash...])
        } else if !reference.hasPrefix("#") {
            guard baseURIs.contains(reference) else {
                throw Self.corrupted("unsupported reference \"\(reference)\" at \(path)/$ref: only references inside the document are supported")
            }
            return "#"
        }
        if reference == "#" || reference.hasPrefix("#/") { return Self.percentDecoded(reference) }
        // `#name`: an `$anchor` (or a draft 4–7 `$id`/`id` of `#name`).
        let anchor = String(reference.dropFirst())
        guard let found = Self.findAnchor(anchor, in: document, at: "#") else {
            throw Self.corrupted("unresolvable reference \"\(reference)\" at \(path)/$ref")
        }
        return found
    }

    static func findAnchor(_ anchor: String, in content: GeneratedContent, at path: String) -> String? {
        switch content.kind {
        case .structure(let properties, let keys):
            for key in ["$anchor", "$dynamicAnchor"] {
                if case .string(anchor)? = properties[key]?.kind { return path }
            }
            for key in ["$id", "id"] {
                if case .string("#" + anchor)? = properties[key]?.kind { return path }
            }
            for key in keys where !["enum", "const", "default", "examples"].contains(key) {
                if let value = properties[key], let found = findAnchor(anchor, in: value, at: path + "/" + escape(key)) { return found }
            }
            return nil
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = findAnchor(anchor, in: element, at: "\(path)/\(index)") { return found }
            }
            return nil
        default:
            return nil
        }
    }

    /// The value at a local JSON pointer.
    func resolve(_ pointer: String, at path: String) throws -> GeneratedContent {
        var current = document
        for token in pointer.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) where pointer != "#" {
            let key = Self.unescape(String(token))
            switch current.kind {
            case .structure(let properties, _):
                guard let next = properties[key] else {
                    throw Self.corrupted("unresolvable reference \"\(pointer)\" at \(path)")
                }
                current = next
            case .array(let elements):
                guard let index = Int(key), elements.indices.contains(index) else {
                    throw Self.corrupted("unresolvable reference \"\(pointer)\" at \(path)")
                }
                current = elements[index]
            default:
                throw Self.corrupted("unresolvable reference \"\(pointer)\" at \(path)")
            }
        }
        return current
    }

    // (Most names have neither `~` nor `/`: they are returned as they are,
    // without Foundation's search, which large schemas pay per property.)
    static func unescape(_ token: String) -> String {
        guard token.utf8.contains(UInt8(ascii: "~")) else { return token }
        return token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }

    static func escape(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
