import Foundation

extension Transcript {
    /// The prompt entry: what the user asked, with the options and the
    /// response format the request used.
    public struct Prompt: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        /// The prompt's content.
        public var segments: [Transcript.Segment]
        /// The generation options of the request.
        public var options: GenerationOptions
        /// The structure the response was asked to have, if any.
        public var responseFormat: Transcript.ResponseFormat?
        /// How the request's context was built.
        public var contextOptions: ContextOptions
        /// Additional information associated with the prompt, keyed by name.
        public var metadata: [String: GeneratedContent]

        /// Creates a prompt entry.
        public init(
            id: String = UUID().uuidString,
            segments: [Transcript.Segment],
            options: GenerationOptions = GenerationOptions(),
            responseFormat: Transcript.ResponseFormat? = nil
        ) {
            self.id = id
            self.segments = segments
            self.options = options
            self.responseFormat = responseFormat
            self.contextOptions = ContextOptions()
            self.metadata = [:]
        }

        /// Creates a prompt entry with metadata and context options.
        @_disfavoredOverload
        public init(
            id: String = UUID().uuidString,
            metadata: [String: any ConvertibleToGeneratedContent] = [:],
            segments: [Transcript.Segment],
            options: GenerationOptions = GenerationOptions(),
            responseFormat: Transcript.ResponseFormat? = nil,
            contextOptions: ContextOptions = ContextOptions()
        ) {
            self.id = id
            self.segments = segments
            self.options = options
            self.responseFormat = responseFormat
            self.contextOptions = contextOptions
            self.metadata = metadata.mapValues(\.generatedContent)
        }

        public var description: String {
            var text = "Prompt: \(segments.renderedText)"
            if let responseFormat {
                text += "\n  Response format: \(responseFormat.description)"
            }
            return text
        }
    }

    /// The structure a response was asked to have: a schema and its name.
    public struct ResponseFormat: Sendable, Equatable, CustomStringConvertible {
        /// What a response format asks for.
        public enum Kind: Sendable, Equatable {
            /// Content that follows a generation schema.
            case schema(GenerationSchema)

            /// Equal when they ask for the same schema.
            public static func == (lhs: Kind, rhs: Kind) -> Bool {
                switch (lhs, rhs) {
                case (.schema(let a), .schema(let b)): GenerationSchema.sameSchema(a, b)
                }
            }
        }

        /// The schema the response follows.
        package var schema: GenerationSchema
        private var storedName: String

        /// What this response format asks for.
        public var kind: Kind { .schema(schema) }

        /// The name of the response format (the generated type's or schema's name).
        public var name: String { storedName }

        /// Creates a response format for a generable type.
        public init<Content: Generable>(type: Content.Type) {
            self.schema = Content.generationSchema
            self.storedName = String(describing: Content.self)
        }

        /// Creates a response format for a schema.
        public init(schema: GenerationSchema) {
            self.schema = schema
            self.storedName = schema.name
        }

        package init(name: String, schema: GenerationSchema) {
            self.schema = schema
            self.storedName = name
        }

        public var description: String { name }

        public static func == (lhs: ResponseFormat, rhs: ResponseFormat) -> Bool {
            lhs.storedName == rhs.storedName && GenerationSchema.sameSchema(lhs.schema, rhs.schema)
        }
    }
}
