import GuidedGeneration

extension GenerationSchema {
    /// A property of a structured type: its name, description, type and
    /// guides.
    ///
    /// The `@Generable` macro builds one per stored property; optional Swift
    /// properties use the `Value?.Type` initializers and may be left out of
    /// generated content.
    public struct Property: Sendable {
        package let node: PropertyNode
        /// Named types the property's type needs.
        package let definitions: [SchemaDefinition]

        /// The property's name.
        package var name: String { node.name }

        private init(name: String, description: String?, type: any Generable.Type, guides: [GuideKind], isOptional: Bool) {
            let embedded = SchemaEmbedding.embed(type)
            node = PropertyNode(
                name: name,
                description: description,
                node: SchemaGuides.apply(guides, to: embedded.node),
                isOptional: isOptional
            )
            definitions = embedded.definitions
        }

        /// Creates a property that contains a generable type.
        public init<Value>(
            name: String,
            description: String? = nil,
            type: Value.Type,
            guides: [GenerationGuide<Value>] = []
        ) where Value: Generable {
            self.init(name: name, description: description, type: type, guides: guides.map(\.kind), isOptional: false)
        }

        /// Creates an optional property that contains a generable type.
        public init<Value>(
            name: String,
            description: String? = nil,
            type: Value?.Type,
            guides: [GenerationGuide<Value>] = []
        ) where Value: Generable {
            self.init(name: name, description: description, type: Value.self, guides: guides.map(\.kind), isOptional: true)
        }

        /// Creates a string property whose value must match the regular
        /// expressions.
        public init<RegexOutput>(
            name: String,
            description: String? = nil,
            type: String.Type,
            guides: [Regex<RegexOutput>] = []
        ) {
            self.init(name: name, description: description, type: type, guides: guides.map(RegexPattern.guide(for:)), isOptional: false)
        }

        /// Creates an optional string property whose value must match the
        /// regular expressions.
        public init<RegexOutput>(
            name: String,
            description: String? = nil,
            type: String?.Type,
            guides: [Regex<RegexOutput>] = []
        ) {
            self.init(name: name, description: description, type: String.self, guides: guides.map(RegexPattern.guide(for:)), isOptional: true)
        }
    }
}
