import Foundation

extension GenerationSchema {
    /// An error that occurs when there is a problem creating a generation
    /// schema from dynamic schemas.
    public enum SchemaError: Error, LocalizedError {
        /// The context in which the error occurred.
        public struct Context: Sendable {
            /// A string representation of the debug description.
            public let debugDescription: String

            /// Creates a context with the debug description you provide.
            public init(debugDescription: String) {
                self.debugDescription = debugDescription
            }
        }

        /// Two or more of the dynamic schemas have the same type name.
        case duplicateType(schema: String?, type: String, context: GenerationSchema.SchemaError.Context)
        /// An object schema has properties with conflicting names.
        case duplicateProperty(schema: String, property: String, context: GenerationSchema.SchemaError.Context)
        /// An any-of schema has no choices.
        case emptyTypeChoices(schema: String, context: GenerationSchema.SchemaError.Context)
        /// A schema references types that are not defined.
        case undefinedReferences(schema: String?, references: [String], context: GenerationSchema.SchemaError.Context)

        public var errorDescription: String? {
            switch self {
            case .duplicateType(let schema, let type, _):
                if let schema {
                    return "The schema \(schema) defines the type \(type) more than once."
                }
                return "The type \(type) is defined more than once."
            case .duplicateProperty(let schema, let property, _):
                return "The schema \(schema) has more than one property named \(property)."
            case .emptyTypeChoices(let schema, _):
                return "The schema \(schema) must offer at least one choice."
            case .undefinedReferences(let schema, let references, _):
                let list = references.joined(separator: ", ")
                if let schema {
                    return "The schema \(schema) references undefined types: \(list)."
                }
                return "The schema references undefined types: \(list)."
            }
        }

        public var failureReason: String? {
            context.debugDescription.isEmpty ? nil : context.debugDescription
        }

        public var recoverySuggestion: String? {
            switch self {
            case .duplicateType:
                return "Give each dynamic schema a unique name, or pass each one only once."
            case .duplicateProperty:
                return "Rename or remove the repeated property."
            case .emptyTypeChoices:
                return "Provide at least one choice to the any-of schema."
            case .undefinedReferences:
                return "Pass a schema with each referenced name in the dependencies, or fix the reference's name."
            }
        }

        private var context: Context {
            switch self {
            case .duplicateType(_, _, let context),
                .duplicateProperty(_, _, let context),
                .emptyTypeChoices(_, let context),
                .undefinedReferences(_, _, let context):
                return context
            }
        }
    }
}
