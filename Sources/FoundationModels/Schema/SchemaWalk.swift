import GuidedGeneration

/// Traversals over the schema IR.
///
/// Exists so later layers (grammar construction, prompt rendering,
/// validation) do not each re-implement the recursion. Walks never follow
/// references, so recursive schemas terminate; use
/// ``GenerationSchema/resolve(_:)`` to look a reference up.
package enum SchemaWalk {
    /// Calls `visit` on `node` and every node nested in it, parents first.
    package static func forEach(in node: SchemaNode, _ visit: (SchemaNode) throws -> Void) rethrows {
        try visit(node)
        switch node {
        case .object(let object):
            for property in object.properties {
                try forEach(in: property.node, visit)
            }
            if let additional = object.additionalProperties { try forEach(in: additional, visit) }
            for property in object.patternProperties {
                try forEach(in: property.node, visit)
            }
        case .array(let array):
            for element in array.prefixItems {
                try forEach(in: element, visit)
            }
            try forEach(in: array.items, visit)
        case .anyOf(let choices):
            for choice in choices {
                try forEach(in: choice, visit)
            }
        case .string, .integer, .number, .boolean, .reference, .null, .any, .literal:
            break
        }
    }

    /// Every name used in a ``SchemaNode/reference(_:)`` within `nodes`.
    package static func referencedNames(in nodes: [SchemaNode]) -> Set<String> {
        var names = Set<String>()
        for node in nodes {
            forEach(in: node) { nested in
                if case .reference(let name) = nested { names.insert(name) }
            }
        }
        return names
    }
}

extension GenerationSchema {
    /// Calls `visit` on every node of the root and of every definition
    /// (without following references).
    package func forEachNode(_ visit: (SchemaNode) throws -> Void) rethrows {
        try SchemaWalk.forEach(in: root, visit)
        for definition in definitions {
            try SchemaWalk.forEach(in: definition.node, visit)
        }
    }

    /// Descriptions of guides that were given but cannot be enforced (see
    /// ``StringNode/unsupportedGuides``). Generation with a schema that has
    /// any must fail with `unsupportedGuide`.
    package var unsupportedGuides: [String] {
        var guides: [String] = []
        forEachNode { node in
            if case .string(let string) = node { guides += string.unsupportedGuides }
        }
        return guides
    }
}
