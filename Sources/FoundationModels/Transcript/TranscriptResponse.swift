import Foundation

extension Transcript {
    /// The response entry: what the model answered.
    public struct Response: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        /// Identifiers of the model assets (e.g. adapters) that produced it.
        public var assetIDs: [String]
        /// The response's content.
        public var segments: [Transcript.Segment]
        /// Metadata produced by the model while generating the response.
        public internal(set) var metadata: [String: GeneratedContent]

        /// Creates a response entry.
        public init(id: String = UUID().uuidString, assetIDs: [String], segments: [Transcript.Segment]) {
            self.id = id
            self.assetIDs = assetIDs
            self.segments = segments
            self.metadata = [:]
        }

        /// Creates a response entry with metadata.
        @_disfavoredOverload
        public init(id: String = UUID().uuidString, metadata: [String: any ConvertibleToGeneratedContent] = [:], segments: [Transcript.Segment]) {
            self.id = id
            self.assetIDs = []
            self.segments = segments
            self.metadata = metadata.mapValues(\.generatedContent)
        }

        public var description: String { "Response: \(segments.renderedText)" }
    }

    /// The reasoning entry: the model's thinking before it answered.
    ///
    /// Providers that return an opaque signature instead of (or with) the
    /// reasoning text keep it in ``signature`` so it can be sent back.
    public struct Reasoning: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        /// Metadata produced by the model while reasoning.
        public var metadata: [String: GeneratedContent]
        /// Ordered reasoning segments; may be empty or a summary when
        /// ``signature`` is set.
        public var segments: [Transcript.Segment]
        /// Opaque producer-supplied signature for this reasoning entry.
        public var signature: Data?

        /// Creates a reasoning entry.
        public init(
            id: String = UUID().uuidString,
            metadata: [String: any ConvertibleToGeneratedContent] = [:],
            segments: [Transcript.Segment],
            signature: Data? = nil
        ) {
            self.id = id
            self.metadata = metadata.mapValues(\.generatedContent)
            self.segments = segments
            self.signature = signature
        }

        public var description: String {
            var text = "Reasoning: \(segments.renderedText)"
            if let signature {
                text += " (signed, \(signature.count) bytes)"
            }
            return text
        }
    }
}
