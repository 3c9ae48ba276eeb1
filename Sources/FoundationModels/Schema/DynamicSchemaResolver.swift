import GuidedGeneration

extension GenerationSchema {
    /// Creates a schema from dynamic schemas: `root` describes the value,
    /// `dependencies` are the named schemas it references.
    ///
    /// Every named schema (given in `dependencies` or nested inline) becomes
    /// a definition; ``DynamicGenerationSchema/init(referenceTo:)`` refers to
    /// one by name.
    ///
    /// - Throws: ``SchemaError`` when two different schemas share a name,
    ///   an object repeats a property name, an any-of schema has no choices,
    ///   or a reference names no schema.
    public init(root: DynamicGenerationSchema, dependencies: [DynamicGenerationSchema]) throws {
        var resolver = DynamicSchemaResolver(rootName: root.definedName)
        let rootNode = try resolver.body(of: root)
        for dependency in dependencies {
            _ = try resolver.node(for: dependency)
        }
        let name = root.definedName ?? DynamicSchemaResolver.structuralName(of: root)
        var definitions = resolver.definitions
        let referenced = SchemaWalk.referencedNames(in: [rootNode] + definitions.map(\.node))
        let defined = Set(definitions.map(\.name)).union(root.definedName.map { [$0] } ?? [])
        let undefined = referenced.subtracting(defined).sorted()
        if !undefined.isEmpty {
            throw SchemaError.undefinedReferences(
                schema: root.definedName,
                references: undefined,
                context: .init(
                    debugDescription:
                        "No schema named \(undefined.joined(separator: ", ")) was given; defined: \(defined.sorted().joined(separator: ", "))")
            )
        }
        if let rootName = root.definedName, referenced.contains(rootName) {
            definitions.append(SchemaDefinition(name: rootName, description: resolver.rootDescription, node: rootNode))
        }
        self.init(
            name: name,
            description: resolver.rootDescription,
            root: rootNode,
            definitions: definitions,
            isNamedType: root.definedName != nil
        )
    }
}

/// Turns dynamic schemas into resolved ``SchemaNode``s and definitions,
/// checking the rules ``GenerationSchema/SchemaError`` describes.
struct DynamicSchemaResolver {
    private(set) var definitions: [SchemaDefinition] = []
    private(set) var rootDescription: String?
    private let rootName: String?

    init(rootName: String?) {
        self.rootName = rootName
    }

    static func structuralName(of schema: DynamicGenerationSchema) -> String {
        switch schema.body {
        case .array: "Array"
        case .generable(_, let typeName): typeName
        case .reference(let name): name
        case .null: "Null"
        case .object(let name, _, _, _), .anyOf(let name, _, _), .stringChoices(let name, _, _): name
        }
    }

    /// The node for a schema used inside another: named schemas become a
    /// definition and a reference to it.
    mutating func node(for schema: DynamicGenerationSchema) throws -> SchemaNode {
        guard let name = schema.definedName else {
            return try body(of: schema)
        }
        let node = try body(of: schema)
        try define(SchemaDefinition(name: name, description: description(of: schema), node: node))
        return .reference(name)
    }

    /// The node describing the schema's own structure.
    mutating func body(of schema: DynamicGenerationSchema) throws -> SchemaNode {
        switch schema.body {
        case .object(let name, let description, let properties, let representsNil):
            if name == rootName, rootDescription == nil { rootDescription = description }
            var seen = Set<String>()
            var nodes: [PropertyNode] = []
            for property in properties {
                guard seen.insert(property.name).inserted else {
                    throw GenerationSchema.SchemaError.duplicateProperty(
                        schema: name,
                        property: property.name,
                        context: .init(debugDescription: "The object schema \(name) lists the property \(property.name) more than once.")
                    )
                }
                nodes.append(
                    PropertyNode(
                        name: property.name,
                        description: property.description,
                        node: try node(for: property.schema),
                        isOptional: property.isOptional
                    ))
            }
            return .object(ObjectNode(properties: nodes, representsNilExplicitly: representsNil))
        case .anyOf(let name, let description, let choices):
            if name == rootName, rootDescription == nil { rootDescription = description }
            guard !choices.isEmpty else {
                throw GenerationSchema.SchemaError.emptyTypeChoices(
                    schema: name,
                    context: .init(debugDescription: "The any-of schema \(name) has an empty list of choices.")
                )
            }
            var nodes: [SchemaNode] = []
            for choice in choices {
                nodes.append(try node(for: choice))
            }
            return .anyOf(nodes)
        case .stringChoices(let name, let description, let choices):
            if name == rootName, rootDescription == nil { rootDescription = description }
            guard !choices.isEmpty else {
                throw GenerationSchema.SchemaError.emptyTypeChoices(
                    schema: name,
                    context: .init(debugDescription: "The string any-of schema \(name) has an empty list of choices.")
                )
            }
            return .string(StringNode(choices: choices))
        case .array(let items, let minimumCount, let maximumCount):
            return .array(ArrayNode(items: try node(for: items), minimumCount: minimumCount, maximumCount: maximumCount))
        case .generable(let embedded, _):
            for definition in embedded.definitions {
                try define(definition)
            }
            return embedded.node
        case .reference(let name):
            return .reference(name)
        case .null:
            return .null
        }
    }

    private func description(of schema: DynamicGenerationSchema) -> String? {
        switch schema.body {
        case .object(_, let description, _, _), .anyOf(_, let description, _), .stringChoices(_, let description, _):
            return description
        case .array, .generable, .reference, .null:
            return nil
        }
    }

    /// Adds a definition; the same name may only be defined again with
    /// identical content (one schema value used in several places).
    private mutating func define(_ definition: SchemaDefinition) throws {
        if definition.name == rootName {
            throw GenerationSchema.SchemaError.duplicateType(
                schema: rootName,
                type: definition.name,
                context: .init(debugDescription: "The root schema's name \(definition.name) is used by another schema too.")
            )
        }
        if let existing = definitions.first(where: { $0.name == definition.name }) {
            guard existing == definition else {
                throw GenerationSchema.SchemaError.duplicateType(
                    schema: rootName,
                    type: definition.name,
                    context: .init(debugDescription: "Two different schemas are named \(definition.name).")
                )
            }
            return
        }
        definitions.append(definition)
    }
}
