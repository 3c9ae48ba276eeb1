/// The intermediate representation of a generation schema: one node of the
/// tree of types a model's output must follow.
///
/// Exists so every later layer (JSON Schema coding, schema-to-grammar
/// constraints, prompt rendering, server back ends) walks one small, closed,
/// fully resolved structure instead of Apple's builder types. Named types
/// live in ``GenerationSchema/definitions`` and are reached through
/// ``reference(_:)``, which is how recursive types stay finite.
package indirect enum SchemaNode: Sendable, Hashable {
    /// A JSON object with a fixed, ordered set of properties.
    case object(ObjectNode)
    /// A string, possibly constrained.
    case string(StringNode)
    /// A whole number (`Int`), possibly bounded.
    case integer(NumberNode)
    /// Any number (`Double`, `Float`, `Decimal`), possibly bounded.
    case number(NumberNode)
    /// `true` or `false`.
    case boolean
    /// A list whose elements all follow one schema.
    case array(ArrayNode)
    /// Exactly one of several alternatives (an enum with payloads, a union
    /// of types, a nullable value).
    case anyOf([SchemaNode])
    /// The named definition with this name (see ``GenerationSchema/definition(named:)``).
    case reference(String)
    /// JSON `null`.
    case null
    /// Any JSON value (the schema of ``GeneratedContent`` itself).
    case any
}

/// An object's ordered properties.
package struct ObjectNode: Sendable, Hashable {
    /// The properties, in generation order.
    package var properties: [PropertyNode]
    /// Whether an absent optional property is written as an explicit `null`
    /// (26.4's `representNilExplicitlyInGeneratedContent`). When `true`,
    /// optional properties are still generated, as their value or `null`.
    package var representsNilExplicitly: Bool

    package init(properties: [PropertyNode], representsNilExplicitly: Bool = false) {
        self.properties = properties
        self.representsNilExplicitly = representsNilExplicitly
    }
}

/// One property of an object.
package struct PropertyNode: Sendable, Hashable {
    package var name: String
    package var description: String?
    package var node: SchemaNode
    /// Whether the property may be left out (a Swift optional).
    package var isOptional: Bool

    package init(name: String, description: String? = nil, node: SchemaNode, isOptional: Bool = false) {
        self.name = name
        self.description = description
        self.node = node
        self.isOptional = isOptional
    }
}

/// Constraints on a string. All present constraints apply together.
package struct StringNode: Sendable, Hashable {
    /// The string must be exactly this (`.constant`, a tagged case's name).
    package var constant: String?
    /// The string must be one of these (`.anyOf`, a simple enum's cases).
    package var choices: [String]?
    /// The string must match this regular expression (`.pattern`, `@Guide(/…/)`).
    package var pattern: String?
    /// Guides that were given but cannot be expressed (a regex whose pattern
    /// cannot be recovered, several patterns on one value). Generation with
    /// such a schema must fail with `unsupportedGuide` rather than ignore them.
    package var unsupportedGuides: [String]

    package init(constant: String? = nil, choices: [String]? = nil, pattern: String? = nil, unsupportedGuides: [String] = []) {
        self.constant = constant
        self.choices = choices
        self.pattern = pattern
        self.unsupportedGuides = unsupportedGuides
    }
}

/// Inclusive bounds on a number.
package struct NumberNode: Sendable, Hashable {
    package var minimum: Double?
    package var maximum: Double?

    package init(minimum: Double? = nil, maximum: Double? = nil) {
        self.minimum = minimum
        self.maximum = maximum
    }
}

/// An array's element schema and inclusive count bounds.
package struct ArrayNode: Sendable, Hashable {
    package var items: SchemaNode
    package var minimumCount: Int?
    package var maximumCount: Int?

    package init(items: SchemaNode, minimumCount: Int? = nil, maximumCount: Int? = nil) {
        self.items = items
        self.minimumCount = minimumCount
        self.maximumCount = maximumCount
    }
}

/// A named type: the target of ``SchemaNode/reference(_:)``.
package struct SchemaDefinition: Sendable, Hashable {
    package var name: String
    package var description: String?
    package var node: SchemaNode

    package init(name: String, description: String? = nil, node: SchemaNode) {
        self.name = name
        self.description = description
        self.node = node
    }
}
