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
    /// Exactly this JSON value, given as the compact JSON text the model
    /// writes (a JSON Schema `const` or `enum` member that is not a string).
    case literal(String)
}

/// An object's ordered properties.
package struct ObjectNode: Sendable, Hashable {
    /// The properties, in generation order.
    package var properties: [PropertyNode]
    /// Whether an absent optional property is written as an explicit `null`
    /// (26.4's `representNilExplicitlyInGeneratedContent`). When `true`,
    /// optional properties are still generated, as their value or `null`.
    package var representsNilExplicitly: Bool
    /// The schema of properties other than ``properties`` (JSON Schema's
    /// `additionalProperties`), written after them; nil: none are allowed
    /// (`additionalProperties: false`, what Swift types generate).
    package var additionalProperties: SchemaNode?
    /// Keys matching a pattern (search semantics, as JSON Schema's
    /// `patternProperties`) take its schema instead of
    /// ``additionalProperties``; they are written after ``properties``.
    package var patternProperties: [PatternProperty]
    /// What every key outside ``properties`` must be (`propertyNames`).
    package var propertyNames: StringNode?
    /// Whether the object must have at least one property, declared or
    /// extra, though none is required (JSON Schema's `minProperties: 1`):
    /// `{}` is refused. One object that says so, where requiring each
    /// property in turn would make one object per property, all of them
    /// alive until the first key is written (and, nested, multiplied).
    /// Needs a declared property: writing one is how a value is finished
    /// when the budget runs out.
    package var requiresAProperty: Bool

    package init(
        properties: [PropertyNode], representsNilExplicitly: Bool = false,
        additionalProperties: SchemaNode? = nil, patternProperties: [PatternProperty] = [], propertyNames: StringNode? = nil,
        requiresAProperty: Bool = false
    ) {
        self.properties = properties
        self.representsNilExplicitly = representsNilExplicitly
        self.additionalProperties = additionalProperties
        self.patternProperties = patternProperties
        self.propertyNames = propertyNames
        self.requiresAProperty = requiresAProperty
    }

    /// Whether keys other than ``properties`` may be written.
    package var isOpen: Bool { additionalProperties != nil || !patternProperties.isEmpty }
}

/// Properties whose keys match a regular expression (JSON Schema's
/// `patternProperties`: the pattern may match anywhere in the key).
package struct PatternProperty: Sendable, Hashable {
    /// The ECMAScript pattern, searched for in the key.
    package var pattern: String
    package var node: SchemaNode

    package init(pattern: String, node: SchemaNode) {
        self.pattern = pattern
        self.node = node
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
    /// JSON Schema `pattern`s: each must match somewhere in the string
    /// (ECMAScript search semantics, `^`/`$` anchoring), unlike ``pattern``.
    package var searchPatterns: [String]
    /// Fewest and most characters (Unicode scalars), JSON Schema's
    /// `minLength`/`maxLength`.
    package var minimumLength: Int?
    package var maximumLength: Int?
    /// A JSON Schema `format` the string must have (see ``StringFormat``).
    package var format: String?
    /// Strings it must not be (JSON Schema's `not` of an `enum` or `const`).
    package var excludedValues: [String]
    /// Patterns that must not match anywhere in it (`not` of a `pattern`,
    /// search semantics as ``searchPatterns``).
    package var excludedPatterns: [String]

    package init(
        constant: String? = nil, choices: [String]? = nil, pattern: String? = nil, unsupportedGuides: [String] = [],
        searchPatterns: [String] = [], minimumLength: Int? = nil, maximumLength: Int? = nil, format: String? = nil,
        excludedValues: [String] = [], excludedPatterns: [String] = []
    ) {
        self.constant = constant
        self.choices = choices
        self.pattern = pattern
        self.unsupportedGuides = unsupportedGuides
        self.searchPatterns = searchPatterns
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.format = format
        self.excludedValues = excludedValues
        self.excludedPatterns = excludedPatterns
    }

    /// Whether any constraint beyond the length applies.
    package var constrainsText: Bool {
        constant != nil || choices != nil || pattern != nil || !searchPatterns.isEmpty || format != nil
            || !excludedValues.isEmpty || !excludedPatterns.isEmpty
    }
}

/// Bounds on a number: inclusive unless marked exclusive.
package struct NumberNode: Sendable, Hashable {
    package var minimum: Double?
    package var maximum: Double?
    /// The value must be greater than ``minimum`` (JSON Schema's `exclusiveMinimum`).
    package var excludesMinimum: Bool
    /// The value must be less than ``maximum``.
    package var excludesMaximum: Bool

    package init(minimum: Double? = nil, maximum: Double? = nil, excludesMinimum: Bool = false, excludesMaximum: Bool = false) {
        self.minimum = minimum
        self.maximum = maximum
        self.excludesMinimum = excludesMinimum
        self.excludesMaximum = excludesMaximum
    }
}

/// An array's element schemas and inclusive count bounds.
package struct ArrayNode: Sendable, Hashable {
    /// The schema of every element after ``prefixItems``.
    package var items: SchemaNode
    package var minimumCount: Int?
    package var maximumCount: Int?
    /// The schemas of the first elements, one each (a tuple: JSON Schema's
    /// `prefixItems`, or `items` as an array in drafts 4 to 2019-09).
    package var prefixItems: [SchemaNode]
    /// No two elements may be equal (JSON Schema's `uniqueItems`). The
    /// elements must be strings, integers, booleans, null or constants:
    /// values the matcher can compare as they are written.
    package var uniqueItems: Bool

    package init(items: SchemaNode, minimumCount: Int? = nil, maximumCount: Int? = nil, prefixItems: [SchemaNode] = [], uniqueItems: Bool = false) {
        self.items = items
        self.minimumCount = minimumCount
        self.maximumCount = maximumCount
        self.prefixItems = prefixItems
        self.uniqueItems = uniqueItems
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
