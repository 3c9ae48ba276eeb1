/// A schema built at run time, from data rather than from Swift types.
///
/// Exists for apps whose output shape is only known while running (user
/// defined forms, server-provided structures). Schemas may reference each
/// other by name; ``GenerationSchema/init(root:dependencies:)`` resolves the
/// references and validates the whole set.
public struct DynamicGenerationSchema: Sendable {
    package indirect enum Body: Sendable {
        case object(name: String, description: String?, properties: [Property], representsNilExplicitly: Bool)
        case anyOf(name: String, description: String?, choices: [DynamicGenerationSchema])
        case stringChoices(name: String, description: String?, choices: [String])
        case array(items: DynamicGenerationSchema, minimumCount: Int?, maximumCount: Int?)
        case generable(SchemaEmbedding.Embedded, typeName: String)
        case reference(String)
        case null
    }

    package let body: Body

    /// A property that belongs to a dynamic object schema.
    public struct Property: Sendable {
        package let name: String
        package let description: String?
        package let schema: DynamicGenerationSchema
        package let isOptional: Bool

        /// Creates a property referencing a dynamic schema.
        public init(name: String, description: String? = nil, schema: DynamicGenerationSchema, isOptional: Bool = false) {
            self.name = name
            self.description = description
            self.schema = schema
            self.isOptional = isOptional
        }
    }

    /// Creates an object schema.
    public init(name: String, description: String? = nil, properties: [DynamicGenerationSchema.Property]) {
        body = .object(name: name, description: description, properties: properties, representsNilExplicitly: false)
    }

    /// Creates an object schema, choosing whether `nil` optionals are written
    /// as explicit `null`s in generated content.
    public init(
        name: String,
        description: String? = nil,
        representNilExplicitlyInGeneratedContent: Bool,
        properties: [DynamicGenerationSchema.Property]
    ) {
        body = .object(
            name: name,
            description: description,
            properties: properties,
            representsNilExplicitly: representNilExplicitlyInGeneratedContent
        )
    }

    /// Creates an any-of schema: the value follows one of the choices.
    public init(name: String, description: String? = nil, anyOf choices: [DynamicGenerationSchema]) {
        body = .anyOf(name: name, description: description, choices: choices)
    }

    /// Creates an enum schema: the value is one of the strings.
    public init(name: String, description: String? = nil, anyOf choices: [String]) {
        body = .stringChoices(name: name, description: description, choices: choices)
    }

    /// Creates an array schema.
    public init(arrayOf itemSchema: DynamicGenerationSchema, minimumElements: Int? = nil, maximumElements: Int? = nil) {
        body = .array(items: itemSchema, minimumCount: minimumElements, maximumCount: maximumElements)
    }

    /// Creates a schema from a generable type and guides.
    public init<Value>(type: Value.Type, guides: [GenerationGuide<Value>] = []) where Value: Generable {
        var embedded = SchemaEmbedding.embed(type)
        embedded.node = SchemaGuides.apply(guides.map(\.kind), to: embedded.node)
        body = .generable(embedded, typeName: SchemaNaming.name(of: type))
    }

    /// Creates a reference schema: the schema with this name, given to
    /// ``GenerationSchema/init(root:dependencies:)``.
    public init(referenceTo name: String) {
        body = .reference(name)
    }

    private init(body: Body) {
        self.body = body
    }

    /// A schema for JSON `null`.
    public static var null: DynamicGenerationSchema {
        DynamicGenerationSchema(body: .null)
    }

    /// The name a named schema (object, any-of, enum) is referenced by.
    package var definedName: String? {
        switch body {
        case .object(let name, _, _, _), .anyOf(let name, _, _), .stringChoices(let name, _, _):
            return name
        case .array, .generable, .reference, .null:
            return nil
        }
    }
}
