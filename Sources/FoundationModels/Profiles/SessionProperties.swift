import Foundation
import Observation
import Synchronization

/// A key for a value stored in a session's ``SessionPropertyValues``.
///
/// Usually declared for you by `@SessionPropertyEntry`:
///
/// ```swift
/// extension SessionPropertyValues {
///     @SessionPropertyEntry var tone: String = "friendly"
/// }
/// ```
public protocol SessionPropertyKey: SendableMetatype {
    /// The type of the stored value.
    associatedtype Value
    /// The value a session starts with.
    static var defaultValue: Value { get }
}

/// The values a session's dynamic profile, dynamic instructions and tools
/// share, read and written through `@SessionProperty`.
///
/// A session re-evaluates its profile and instructions before every
/// request, so changing a property (from a tool, a hook, or the app)
/// changes what the next request is sent with. Observable: reading a
/// property in SwiftUI or with `withObservationTracking` tracks it.
public final class SessionPropertyValues: Sendable, Observable {
    private let storage: Storage
    private let registrar = ObservationRegistrar()

    /// A session's values (the session creates them; Apple's API has no
    /// public initializer).
    package init() {
        self.storage = Storage()
    }

    /// The value stored for `key`, or its default.
    public subscript<Key: SessionPropertyKey>(_ key: Key.Type) -> Key.Value {
        get {
            registrar.access(self, keyPath: \.values)
            return storage.value(for: key)
        }
        set {
            registrar.withMutation(of: self, keyPath: \.values) {
                storage.set(newValue, for: key)
            }
        }
    }

    /// The conversation so far, after the instructions: refreshed from the
    /// session's transcript before the profile and instructions are
    /// evaluated for a request.
    public var history: Transcript.HistoryView {
        get { self[HistoryKey.self] }
        set { self[HistoryKey.self] = newValue }
    }

    /// The dynamic instructions the session was created with (empty for a
    /// session created with a profile or static instructions).
    public var rootDynamicInstructions: any DynamicInstructions {
        get { self[RootInstructionsKey.self] }
        set { self[RootInstructionsKey.self] = newValue }
    }

    /// Observation's key path for the whole table.
    private var values: Int { 0 }

    private enum HistoryKey: SessionPropertyKey {
        static var defaultValue: Transcript.HistoryView { [] }
    }

    private enum RootInstructionsKey: SessionPropertyKey {
        static var defaultValue: any DynamicInstructions { EmptyDynamicInstructions() }
    }

    /// The table of values.
    ///
    /// `@unchecked Sendable`: keys are metatypes and values are whatever the
    /// key declares (Apple's API does not require them to be `Sendable`);
    /// every read and write of `values` happens under `lock`, so the table
    /// itself is never accessed concurrently.
    private final class Storage: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [ObjectIdentifier: Any] = [:]

        func value<Key: SessionPropertyKey>(for key: Key.Type) -> Key.Value {
            lock.lock()
            defer { lock.unlock() }
            return values[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue
        }

        func set<Key: SessionPropertyKey>(_ value: Key.Value, for key: Key.Type) {
            lock.lock()
            defer { lock.unlock() }
            values[ObjectIdentifier(key)] = value
        }
    }

    /// The values of the session whose profile, instructions, hooks or
    /// tools are running on this task.
    @TaskLocal package static var current: SessionPropertyValues?

    /// Values read and written outside any session (a property wrapper used
    /// in a view, say): each key's default until written.
    package static let detached = SessionPropertyValues()
}

extension LanguageModelSession {
    /// A value of the running session's ``SessionPropertyValues``, for use
    /// in dynamic profiles, dynamic instructions, profile modifiers and tools.
    ///
    /// ```swift
    /// struct Assistant: LanguageModelSession.DynamicProfile {
    ///     @SessionProperty(\.tone) var tone
    ///     var body: some DynamicProfile { Profile { Instructions { "Be \(tone)." } } }
    /// }
    /// ```
    ///
    /// Read or written while the session evaluates its profile or runs a
    /// hook or tool, it is that session's value; anywhere else it is a value
    /// shared by code outside sessions.
    @propertyWrapper
    public struct SessionProperty<Value> {
        private let keyPath: ReferenceWritableKeyPath<SessionPropertyValues, Value>

        public init(_ keyPath: ReferenceWritableKeyPath<SessionPropertyValues, Value>) {
            self.keyPath = keyPath
        }

        public var wrappedValue: Value {
            get { (SessionPropertyValues.current ?? .detached)[keyPath: keyPath] }
            nonmutating set { (SessionPropertyValues.current ?? .detached)[keyPath: keyPath] = newValue }
        }
    }
}

// `@unchecked`: the wrapper holds only an immutable key path, and Swift does
// not yet mark key paths `Sendable`. The key paths it is made with name
// properties of `SessionPropertyValues` (declared with `@SessionPropertyEntry`),
// which capture no subscript arguments, so nothing mutable is shared.
extension LanguageModelSession.SessionProperty: @unchecked Sendable where Value: Sendable {}

extension DynamicInstructions {
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}

extension Tool {
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}

extension LanguageModelSession.DynamicProfile {
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}

extension LanguageModelSession.DynamicProfileModifier {
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}
