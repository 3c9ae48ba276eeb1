import Foundation

/// A unique identifier for one generated value, stable for the duration of a
/// response.
///
/// Exists so that streamed snapshots of the same value (and `@Generable`
/// types that declare `var id: GenerationID`) can be matched up across
/// partial generations, e.g. to keep SwiftUI list rows stable while a
/// response streams.
public struct GenerationID: Sendable, Hashable {
    let value: UUID

    /// Creates a new, unique generation identifier.
    public init() {
        value = UUID()
    }
}

extension GenerationID: CustomDebugStringConvertible {
    public var debugDescription: String { "GenerationID(\(value.uuidString))" }
}
