import Foundation

extension LanguageModelSession {
    /// A session's whole setup — model, instructions, tools, options, hooks —
    /// written as a value the session evaluates again before every request.
    ///
    /// ```swift
    /// struct Tutor: LanguageModelSession.DynamicProfile {
    ///     @SessionProperty(\.level) var level
    ///     var body: some DynamicProfile {
    ///         Profile { Instructions { "Explain at a \(level) level." } }
    ///             .temperature(level == "beginner" ? 0.3 : 0.7)
    ///             .onResponse { response in log(response) }
    ///     }
    /// }
    /// let session = LanguageModelSession(profile: Tutor())
    /// ```
    ///
    /// Modifiers nearer the `Profile` win over outer ones (as in SwiftUI);
    /// hooks accumulate. A request's own non-`nil` options win over the
    /// profile's.
    public protocol DynamicProfile {
        /// The profile this value is made of.
        associatedtype Body: LanguageModelSession.DynamicProfile

        /// The profile this value is made of.
        @DynamicProfileBuilder var body: Body { get }
    }

    /// The instructions (and tools) of a profile: the leaf every profile
    /// is built on.
    public struct Profile: DynamicProfile {
        public typealias Body = Never
        public var body: Never { primitiveBody(of: Self.self) }
        let instructions: AnyDynamicInstructions

        public init(@DynamicInstructionsBuilder _ content: () -> some DynamicInstructions) {
            self.instructions = AnyDynamicInstructions(erasing: content())
        }
    }

    /// One of two profiles, chosen by an `if`/`else` or `switch` in a builder.
    public struct ConditionalDynamicProfile<TrueContent: DynamicProfile, FalseContent: DynamicProfile>: DynamicProfile {
        public typealias Body = Never
        public var body: Never { primitiveBody(of: Self.self) }
        let content: Either

        enum Either {
            case trueContent(TrueContent)
            case falseContent(FalseContent)
        }
    }

    /// The result builder behind a profile's `body`: one profile, or one of
    /// two chosen by `if`/`else` or `switch`.
    @resultBuilder
    public struct DynamicProfileBuilder {
        public static func buildBlock<T: DynamicProfile>(_ content: T) -> T {
            content
        }

        public static func buildEither<T: DynamicProfile, F: DynamicProfile>(first: T) -> ConditionalDynamicProfile<T, F> {
            ConditionalDynamicProfile(content: .trueContent(first))
        }

        public static func buildEither<T: DynamicProfile, F: DynamicProfile>(second: F) -> ConditionalDynamicProfile<T, F> {
            ConditionalDynamicProfile(content: .falseContent(second))
        }

        /// A profile inside `if #available`, type-erased so the body's type
        /// does not name what older systems lack.
        public static func buildLimitedAvailability(_ content: some LanguageModelSession.DynamicProfile) -> AnyDynamicProfile {
            AnyDynamicProfile(erasing: content)
        }

        /// A body lists one profile: modifiers change it, `if`/`else` picks
        /// one of two.
        @available(*, unavailable, message: "a profile's body is one profile: change it with modifiers, or pick one of two with if/else")
        public static func buildBlock<each T: DynamicProfile>(_ content: repeat each T) -> Never {
            fatalError("unavailable")
        }
    }

    /// Any profile, its type erased: for a profile chosen at run time, or a
    /// stored property of profile type.
    public struct AnyDynamicProfile: DynamicProfile {
        public typealias Body = Never
        public var body: Never { primitiveBody(of: Self.self) }
        let resolveProfile: (inout ProfileResolution) -> Void

        /// `profile`, its type erased.
        public init(_ profile: any DynamicProfile) {
            self.resolveProfile = { $0.add(profile) }
        }

        /// `profile`, its type erased.
        public init(erasing profile: some DynamicProfile) {
            self.resolveProfile = { $0.add(profile) }
        }
    }

    /// A reusable change to a profile, applied with ``DynamicProfile/modifier(_:)``.
    public protocol DynamicProfileModifier {
        /// The profile the modifier makes of its content.
        associatedtype Body: LanguageModelSession.DynamicProfile
        /// The profile being modified, as the modifier receives it.
        typealias Content = LanguageModelSession.DynamicProfileModifierContent<Self>

        /// The modified profile: `content` with modifiers applied.
        @DynamicProfileBuilder func body(content: Content) -> Body
    }

    /// The profile a ``DynamicProfileModifier`` modifies, standing in for it
    /// inside the modifier's `body(content:)`.
    public struct DynamicProfileModifierContent<Modifier: DynamicProfileModifier>: DynamicProfile {
        public typealias Body = Never
        public var body: Never { primitiveBody(of: Self.self) }
        let resolveContent: (inout ProfileResolution) -> Void
    }

    /// A profile with a ``DynamicProfileModifier`` applied.
    public struct ModifiedDynamicProfile<Content: DynamicProfile, Modifier: DynamicProfileModifier>: DynamicProfile {
        public typealias Body = Never
        public var body: Never { primitiveBody(of: Self.self) }
        let content: Content
        let modifier: Modifier
    }
}

extension LanguageModelSession.DynamicProfile {
    public typealias Profile = LanguageModelSession.Profile
    public typealias DynamicProfile = LanguageModelSession.DynamicProfile
}

extension LanguageModelSession.DynamicProfileModifier {
    public typealias DynamicProfile = LanguageModelSession.DynamicProfile
}

extension Never: LanguageModelSession.DynamicProfile {}

// MARK: - Resolution

/// What evaluating a profile produced: the model, the instructions and
/// tools, option adjustments, hooks, the error policy, and the lifecycle
/// callbacks of the parts that are active.
package struct ProfileResolution {
    var backend: ModelBackend?
    var instructions = InstructionsResolution()
    var adjustments = RequestSetup.Adjustments()
    var hooks = RequestSetup.Hooks()
    var errorPolicy: TranscriptErrorHandlingPolicy?
    /// The lifecycle callbacks of every active part, by its place in the profile.
    var lifecycles: [String: Lifecycle] = [:]
    /// Where in the profile the part being resolved sits.
    var path = "profile"

    /// Evaluates `profile` (with its session's properties bound by the caller).
    mutating func add(_ profile: some LanguageModelSession.DynamicProfile) {
        if let primitive = profile as? any PrimitiveDynamicProfile {
            primitive.resolve(into: &self)
        } else {
            let outer = path
            path += "/\(type(of: profile))"
            add(profile.body)
            path = outer
        }
    }

    /// Resolves `body` one level deeper in the profile, under `component`.
    mutating func nested(_ component: String, _ body: (inout ProfileResolution) -> Void) {
        let outer = path
        path += "/\(component)"
        body(&self)
        path = outer
    }

    /// The callbacks a part of a profile runs when it becomes, or stops
    /// being, part of the evaluated profile.
    struct Lifecycle: Sendable {
        var activate: [Unchecked<@isolated(any) () async -> Void>] = []
        var deactivate: [Unchecked<@isolated(any) () async -> Void>] = []
    }
}

/// Profiles the session evaluates itself rather than through `body`.
package protocol PrimitiveDynamicProfile: LanguageModelSession.DynamicProfile {
    func resolve(into resolution: inout ProfileResolution)
}

extension LanguageModelSession.Profile: PrimitiveDynamicProfile {
    package func resolve(into resolution: inout ProfileResolution) {
        resolution.instructions.add(instructions)
    }
}

extension LanguageModelSession.ConditionalDynamicProfile: PrimitiveDynamicProfile {
    package func resolve(into resolution: inout ProfileResolution) {
        switch content {
        case .trueContent(let profile): resolution.nested("true") { $0.add(profile) }
        case .falseContent(let profile): resolution.nested("false") { $0.add(profile) }
        }
    }
}

extension LanguageModelSession.AnyDynamicProfile: PrimitiveDynamicProfile {
    package func resolve(into resolution: inout ProfileResolution) {
        resolveProfile(&resolution)
    }
}

extension LanguageModelSession.DynamicProfileModifierContent: PrimitiveDynamicProfile {
    package func resolve(into resolution: inout ProfileResolution) {
        resolution.nested("content") { resolveContent(&$0) }
    }
}

extension LanguageModelSession.ModifiedDynamicProfile: PrimitiveDynamicProfile {
    package func resolve(into resolution: inout ProfileResolution) {
        let content = self.content
        let placeholder = LanguageModelSession.DynamicProfileModifierContent<Modifier>(resolveContent: { $0.add(content) })
        resolution.nested("\(Modifier.self)") { $0.add(modifier.body(content: placeholder)) }
    }
}

/// A profile with one of the built-in modifiers applied: the modifier's
/// change is made first, so modifiers nearer the `Profile` override it.
struct ProfileAdjustment<Content: LanguageModelSession.DynamicProfile>: PrimitiveDynamicProfile {
    var body: Never { primitiveBody(of: Self.self) }
    let content: Content
    let name: String
    let apply: (inout ProfileResolution) -> Void

    func resolve(into resolution: inout ProfileResolution) {
        resolution.nested(name) { resolution in
            apply(&resolution)
            resolution.add(content)
        }
    }
}

/// A value the session holds for a profile but that Apple's API does not
/// require to be `Sendable` (hook closures, history transforms).
///
/// `@unchecked Sendable` is sound because a session evaluates its profile
/// and calls what it captured only on the task of the request in flight,
/// and admits one request at a time (`beginResponding`); `DynamicSetup`
/// asserts in debug builds that two evaluations never overlap.
package struct Unchecked<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
