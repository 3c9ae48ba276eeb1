import Foundation

/// Code the model can call while it answers: a name, a description, an
/// argument schema, and the function to run.
///
/// The session exposes the tool's definition to the model, decodes the
/// model's arguments into `Arguments` (guided by ``parameters``), calls
/// ``call(arguments:)`` and feeds the output back until the model answers.
public protocol Tool<Arguments, Output>: Sendable {
    /// The arguments the model provides.
    associatedtype Arguments: ConvertibleFromGeneratedContent
    /// What the tool returns to the model.
    associatedtype Output: PromptRepresentable

    /// A unique name the model uses to call the tool. Defaults to the type's name.
    var name: String { get }
    /// A natural-language description of when and how to use the tool.
    var description: String { get }
    /// The schema of the arguments.
    var parameters: GenerationSchema { get }
    /// Whether the tool's name, description and schema go into the instructions.
    var includesSchemaInInstructions: Bool { get }

    /// Runs the tool.
    func call(arguments: Arguments) async throws -> Output
}

extension Tool {
    public var name: String { String(describing: Self.self) }
    public var includesSchemaInInstructions: Bool { true }
}

extension Tool where Arguments: Generable {
    public var parameters: GenerationSchema { Arguments.generationSchema }
}

// A tool's arguments must be a structure the model fills in, not a bare
// value; as in Apple's framework, primitive argument types are rejected at
// compile time with a message (the unavailable witness is the one chosen).

extension Tool where Arguments == String {
    @available(*, unavailable, message: "Tool arguments must be a @Generable type, not String: wrap it in a @Generable struct")
    public var parameters: GenerationSchema { String.generationSchema }
}

extension Tool where Arguments == Int {
    @available(*, unavailable, message: "Tool arguments must be a @Generable type, not Int: wrap it in a @Generable struct")
    public var parameters: GenerationSchema { Int.generationSchema }
}

extension Tool where Arguments == Double {
    @available(*, unavailable, message: "Tool arguments must be a @Generable type, not Double: wrap it in a @Generable struct")
    public var parameters: GenerationSchema { Double.generationSchema }
}

extension Tool where Arguments == Float {
    @available(*, unavailable, message: "Tool arguments must be a @Generable type, not Float: wrap it in a @Generable struct")
    public var parameters: GenerationSchema { Float.generationSchema }
}

extension Tool where Arguments == Decimal {
    @available(*, unavailable, message: "Tool arguments must be a @Generable type, not Decimal: wrap it in a @Generable struct")
    public var parameters: GenerationSchema { Decimal.generationSchema }
}

extension Tool where Arguments == Bool {
    @available(*, unavailable, message: "Tool arguments must be a @Generable type, not Bool: wrap it in a @Generable struct")
    public var parameters: GenerationSchema { Bool.generationSchema }
}
