import GuidedGeneration

/// Places one Generable type's schema inside another's.
///
/// Named types (structs, enums) become a ``SchemaNode/reference(_:)`` plus a
/// definition; structural types (primitives, arrays) are copied inline.
/// Exists to make recursive types finite: while a named type's schema is
/// being built, embedding it again yields a plain reference instead of
/// building it forever.
package enum SchemaEmbedding {
    /// The result of embedding: the node to use and the definitions it needs.
    package struct Embedded: Sendable {
        package var node: SchemaNode
        package var definitions: [SchemaDefinition]
    }

    /// Named types whose schemas are being built on this task or thread.
    @TaskLocal private static var typesInProgress: Set<ObjectIdentifier> = []

    package static func embed(_ type: any Generable.Type) -> Embedded {
        if type is any InlineSchemaGenerable.Type {
            let schema = type.generationSchema
            return Embedded(node: schema.root, definitions: schema.definitions)
        }
        let identity = ObjectIdentifier(type)
        if typesInProgress.contains(identity) {
            return Embedded(node: .reference(SchemaNaming.name(of: type)), definitions: [])
        }
        let schema = $typesInProgress.withValue(typesInProgress.union([identity])) {
            type.generationSchema
        }
        return embed(schema)
    }

    /// Embeds an already built schema.
    package static func embed(_ schema: GenerationSchema) -> Embedded {
        guard schema.isNamedType else {
            return Embedded(node: schema.root, definitions: schema.definitions)
        }
        let own = SchemaDefinition(name: schema.name, description: schema.typeDescription, node: schema.root)
        return Embedded(node: .reference(schema.name), definitions: [own] + schema.definitions)
    }
}

/// Built-in Generable types whose schema is structural (a primitive or an
/// array of something) and is therefore copied inline, never referenced.
package protocol InlineSchemaGenerable {}

/// How schema names are derived from Swift types.
package enum SchemaNaming {
    /// The type's name as written in Swift, without its module or enclosing
    /// types (`Arguments` for `WeatherTool.Arguments`).
    package static func name(of type: Any.Type) -> String {
        String(describing: type)
    }
}

/// Keeps definition lists canonical.
package enum SchemaDefinitions {
    /// Each name once (the first occurrence wins), sorted by name, so the
    /// same schema always lists its definitions the same way.
    package static func normalized(_ definitions: [SchemaDefinition]) -> [SchemaDefinition] {
        var seen = Set<String>()
        return definitions.filter { seen.insert($0.name).inserted }.sorted { $0.name < $1.name }
    }
}
