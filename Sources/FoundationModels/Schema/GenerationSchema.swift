import GuidedGeneration

/// A description of the values a model may generate: their types,
/// properties, descriptions and guides.
///
/// Every ``Generable`` type has one (usually built by the `@Generable`
/// macro); ``DynamicGenerationSchema`` builds them at run time. Guided
/// generation enforces it, and it is encoded as JSON Schema (see
/// `GenerationSchema+Codable.swift`). Internally it is a resolved tree of
/// ``SchemaNode``s plus the named definitions those nodes reference.
public struct GenerationSchema: Sendable {
    /// The name of the type this schema describes (its `title`).
    public internal(set) var name: String
    /// The root type's natural-language description.
    package internal(set) var typeDescription: String?
    /// The root type's structure.
    package internal(set) var root: SchemaNode
    /// Named types the root (or each other) reference, sorted by name, each
    /// name once. Includes the root's own name only when it is recursive.
    package internal(set) var definitions: [SchemaDefinition]
    /// Whether this is a named type (a struct or enum, embedded elsewhere by
    /// reference) rather than a structural one (primitives, arrays, embedded
    /// inline).
    package internal(set) var isNamedType: Bool

    package init(name: String, description: String?, root: SchemaNode, definitions: [SchemaDefinition], isNamedType: Bool) {
        self.name = name
        self.typeDescription = description
        self.root = root
        self.definitions = SchemaDefinitions.normalized(definitions)
        self.isNamedType = isNamedType
    }

    /// Creates a schema by providing an array of properties.
    public init(type: any Generable.Type, description: String? = nil, properties: [GenerationSchema.Property]) {
        self.init(type: type, description: description, representsNilExplicitly: false, properties: properties)
    }

    /// Creates a schema by providing an array of properties, choosing
    /// whether `nil` optionals are written as explicit `null`s in generated
    /// content.
    public init(
        type: any Generable.Type,
        description: String? = nil,
        representNilExplicitlyInGeneratedContent: Bool,
        properties: [GenerationSchema.Property]
    ) {
        self.init(
            type: type,
            description: description,
            representsNilExplicitly: representNilExplicitlyInGeneratedContent,
            properties: properties
        )
    }

    private init(type: any Generable.Type, description: String?, representsNilExplicitly: Bool, properties: [GenerationSchema.Property]) {
        var seen = Set<String>()
        var nodes: [PropertyNode] = []
        var definitions: [SchemaDefinition] = []
        // A repeated property name keeps its first declaration: a JSON object
        // cannot hold two values for one key.
        for property in properties where seen.insert(property.name).inserted {
            nodes.append(property.node)
            definitions += property.definitions
        }
        self.init(
            name: SchemaNaming.name(of: type),
            description: description,
            root: .object(ObjectNode(properties: nodes, representsNilExplicitly: representsNilExplicitly)),
            definitions: definitions,
            isNamedType: true
        )
    }

    /// Creates a schema for a string enumeration: the value is one of
    /// `choices`.
    public init(type: any Generable.Type, description: String? = nil, anyOf choices: [String]) {
        self.init(
            name: SchemaNaming.name(of: type),
            description: description,
            root: .string(StringNode(choices: choices)),
            definitions: [],
            isNamedType: true
        )
    }

    /// Creates a schema for a union: the value is an instance of one of
    /// `types`.
    public init(type: any Generable.Type, description: String? = nil, anyOf types: [any Generable.Type]) {
        var choices: [SchemaNode] = []
        var definitions: [SchemaDefinition] = []
        for choice in types {
            let embedded = SchemaEmbedding.embed(choice)
            choices.append(embedded.node)
            definitions += embedded.definitions
        }
        self.init(
            name: SchemaNaming.name(of: type),
            description: description,
            root: .anyOf(choices),
            definitions: definitions,
            isNamedType: true
        )
    }

    /// A case of an enum with associated values, for ``init(type:description:taggedCases:)``.
    ///
    /// Support API for the `@Generable` macro: its JSON form is an object
    /// whose `"case"` property is the constant `name`, followed by the
    /// payload `properties` (`{"case":"text","value":"hi"}`, `{"case":"none"}`).
    public struct TaggedCase: Sendable {
        let name: String
        let description: String?
        let properties: [GenerationSchema.Property]

        public init(name: String, description: String?, properties: [GenerationSchema.Property]) {
            self.name = name
            self.description = description
            self.properties = properties
        }
    }

    /// Creates a schema for an enum whose cases carry values: any of the
    /// tagged cases, each an object with a constant `"case"` discriminator.
    ///
    /// Support API for the `@Generable` macro; not part of Apple's surface.
    public init(type: any Generable.Type, description: String?, taggedCases: [GenerationSchema.TaggedCase]) {
        var choices: [SchemaNode] = []
        var definitions: [SchemaDefinition] = []
        for taggedCase in taggedCases {
            var properties = [
                PropertyNode(
                    name: TaggedCaseFormat.discriminator,
                    description: taggedCase.description,
                    node: .string(StringNode(constant: taggedCase.name))
                )
            ]
            var seen: Set<String> = [TaggedCaseFormat.discriminator]
            for property in taggedCase.properties where seen.insert(property.name).inserted {
                properties.append(property.node)
                definitions += property.definitions
            }
            choices.append(.object(ObjectNode(properties: properties)))
        }
        self.init(
            name: SchemaNaming.name(of: type),
            description: description,
            root: .anyOf(choices),
            definitions: definitions,
            isNamedType: true
        )
    }

    /// The named definition with this name, if any.
    package func definition(named name: String) -> SchemaDefinition? {
        definitions.first { $0.name == name }
    }

    /// The node a reference points to: a definition, or the root when the
    /// name is the root's own (recursive types).
    package func resolve(_ name: String) -> SchemaNode? {
        if let definition = definition(named: name) { return definition.node }
        if name == self.name { return root }
        return nil
    }
}

/// The shape of tagged enum cases in generated content.
package enum TaggedCaseFormat {
    /// The property holding a tagged case's name.
    package static let discriminator = "case"
}

extension GenerationSchema {
    /// This schema under another name: what `@Generable(name:)` generates.
    /// Not meant to be called directly.
    public func _named(_ name: String) -> GenerationSchema {
        var schema = self
        schema.name = name
        return schema
    }
}
