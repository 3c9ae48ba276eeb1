import Foundation

/// Instructions that are worked out again before every request: text and
/// tools composed with a result builder, able to read session properties.
///
/// ```swift
/// struct TravelInstructions: DynamicInstructions {
///     @SessionProperty(\.destination) var destination
///     var body: some DynamicInstructions {
///         Instructions { "You help plan a trip to \(destination)." }
///         if destination == "Paris" { MetroTool() }
///     }
/// }
/// ```
///
/// A session evaluates its dynamic instructions into an instructions entry
/// (the text, and the definitions of the tools that show their schema) and
/// the set of tools the model may call in that request.
public protocol DynamicInstructions {
    /// The instructions this value is made of.
    associatedtype Body: DynamicInstructions

    /// The instructions this value is made of.
    @DynamicInstructionsBuilder var body: Body { get }
}

extension DynamicInstructions {
    /// Repeats instructions for each element of a collection.
    public typealias ForEach = DynamicInstructionsForEach
}

/// What evaluating dynamic instructions produced: the instructions' segments
/// and the tools, in order.
package struct InstructionsResolution {
    package var segments: [Transcript.Segment] = []
    package var tools: [any Tool] = []

    package init() {}

    /// Evaluates `instructions` (with its session's properties bound by the caller).
    package mutating func add(_ instructions: some DynamicInstructions) {
        if let primitive = instructions as? any PrimitiveDynamicInstructions {
            primitive.resolve(into: &self)
        } else {
            add(instructions.body)
        }
    }

    /// The instructions entry for these segments and tools, keeping `id`.
    package func entry(id: String) -> Transcript.Instructions {
        Transcript.Instructions(
            id: id,
            segments: segments,
            toolDefinitions: tools.filter(\.includesSchemaInInstructions).map { Transcript.ToolDefinition(tool: $0) }
        )
    }
}

/// Dynamic instructions the session evaluates itself rather than through
/// `body` (their `Body` is `Never`).
package protocol PrimitiveDynamicInstructions: DynamicInstructions {
    func resolve(into resolution: inout InstructionsResolution)
}

/// The `body` of a primitive (its `Body` is `Never`): the session reads
/// primitives directly and never asks for it.
package func primitiveBody<T>(of type: T.Type) -> Never {
    preconditionFailure("\(T.self) is a primitive; its body is never read")
}

extension Never: DynamicInstructions {
    public typealias Body = Never
    public var body: Never { primitiveBody(of: Self.self) }
}

// MARK: - Primitives

/// No instructions.
public struct EmptyDynamicInstructions: DynamicInstructions, Sendable {
    public typealias Body = Never
    public var body: Never { primitiveBody(of: Self.self) }
    public init() {}
}

extension EmptyDynamicInstructions: PrimitiveDynamicInstructions {
    package func resolve(into resolution: inout InstructionsResolution) {}
}

extension Instructions: DynamicInstructions {
    /// Static instructions are their text.
    public var body: some DynamicInstructions {
        StaticInstructions(segments: segments)
    }
}

/// The text of an ``Instructions`` value, as dynamic instructions.
struct StaticInstructions: PrimitiveDynamicInstructions {
    var body: Never { primitiveBody(of: Self.self) }
    var segments: [Transcript.Segment]

    func resolve(into resolution: inout InstructionsResolution) {
        resolution.segments += segments
    }
}

/// One tool, offered to the model by dynamic instructions.
struct ToolInstructions: PrimitiveDynamicInstructions {
    var body: Never { primitiveBody(of: Self.self) }
    var tools: [any Tool]

    func resolve(into resolution: inout InstructionsResolution) {
        resolution.tools += tools
    }
}

/// Several instructions, in order (what a builder block with several
/// statements produces).
public struct TupleDynamicInstructions<each Content: DynamicInstructions>: DynamicInstructions {
    public typealias Body = Never
    public var body: Never { primitiveBody(of: Self.self) }
    let content: (repeat each Content)

    public init(_ content: repeat each Content) {
        self.content = (repeat each content)
    }
}

extension TupleDynamicInstructions: PrimitiveDynamicInstructions {
    package func resolve(into resolution: inout InstructionsResolution) {
        for element in repeat each content {
            resolution.add(element)
        }
    }
}

/// One of two instructions, chosen by an `if`/`else` or `switch` in a builder.
public struct ConditionalDynamicInstructions<TrueContent: DynamicInstructions, FalseContent: DynamicInstructions>: DynamicInstructions {
    public typealias Body = Never
    public var body: Never { primitiveBody(of: Self.self) }

    /// Which branch was taken, with its instructions.
    public enum Branch {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    let branch: Branch

    public init(_ branch: Branch) {
        self.branch = branch
    }
}

extension ConditionalDynamicInstructions: PrimitiveDynamicInstructions {
    package func resolve(into resolution: inout InstructionsResolution) {
        switch branch {
        case .trueContent(let content): resolution.add(content)
        case .falseContent(let content): resolution.add(content)
        }
    }
}

extension Optional: DynamicInstructions where Wrapped: DynamicInstructions {
    public typealias Body = Never
    public var body: Never { primitiveBody(of: Self.self) }
}

extension Optional: PrimitiveDynamicInstructions where Wrapped: DynamicInstructions {
    package func resolve(into resolution: inout InstructionsResolution) {
        if let wrapped = self { resolution.add(wrapped) }
    }
}

/// Instructions of any type.
public struct AnyDynamicInstructions: DynamicInstructions {
    public typealias Body = Never
    public var body: Never { primitiveBody(of: Self.self) }
    let base: any DynamicInstructions

    public init(_ instructions: any DynamicInstructions) {
        self.base = instructions
    }

    public init(erasing instructions: some DynamicInstructions) {
        self.base = instructions
    }
}

extension AnyDynamicInstructions: PrimitiveDynamicInstructions {
    package func resolve(into resolution: inout InstructionsResolution) {
        resolution.add(base)
    }
}

/// Instructions repeated for each element of a collection; written
/// `ForEach(items) { item in … }` inside a `body`.
public struct DynamicInstructionsForEach<Data: RandomAccessCollection, ID: Hashable, Content: DynamicInstructions>: DynamicInstructions {
    public typealias Body = Never
    public var body: Never { primitiveBody(of: Self.self) }
    let data: Data
    let content: (Data.Element) -> Content

    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @DynamicInstructionsBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
}

extension DynamicInstructionsForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    public init(_ data: Data, @DynamicInstructionsBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
}

extension DynamicInstructionsForEach: PrimitiveDynamicInstructions {
    package func resolve(into resolution: inout InstructionsResolution) {
        for element in data {
            resolution.add(content(element))
        }
    }
}

// MARK: - Builder

/// The result builder behind `body` of ``DynamicInstructions``: statements
/// are instructions, tools or arrays of tools, with `if`, `if`/`else` and
/// `switch`.
@resultBuilder
public struct DynamicInstructionsBuilder {
    /// A tool: offered to the model while these instructions are in effect.
    public static func buildExpression<T: Tool>(_ tool: T) -> some DynamicInstructions {
        ToolInstructions(tools: [tool])
    }

    public static func buildExpression<T: DynamicInstructions>(_ instructions: T) -> T {
        instructions
    }

    /// Several tools at once.
    public static func buildExpression(_ tools: [any Tool]) -> some DynamicInstructions {
        ToolInstructions(tools: tools)
    }

    public static func buildBlock<each T: DynamicInstructions>(_ content: repeat each T) -> TupleDynamicInstructions<repeat each T> {
        TupleDynamicInstructions(repeat each content)
    }

    public static func buildBlock<T: DynamicInstructions>(_ content: T) -> T {
        content
    }

    public static func buildBlock() -> EmptyDynamicInstructions {
        EmptyDynamicInstructions()
    }

    public static func buildEither<T: DynamicInstructions, F: DynamicInstructions>(first: T) -> ConditionalDynamicInstructions<T, F> {
        ConditionalDynamicInstructions(.trueContent(first))
    }

    public static func buildEither<T: DynamicInstructions, F: DynamicInstructions>(second: F) -> ConditionalDynamicInstructions<T, F> {
        ConditionalDynamicInstructions(.falseContent(second))
    }

    public static func buildOptional<T: DynamicInstructions>(_ content: T?) -> T? {
        content
    }

    /// Instructions inside `if #available`, type-erased so the body's type
    /// does not name what older systems lack.
    public static func buildLimitedAvailability(_ content: some DynamicInstructions) -> AnyDynamicInstructions {
        AnyDynamicInstructions(erasing: content)
    }
}
