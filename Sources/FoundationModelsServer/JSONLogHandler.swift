import Foundation
import FoundationModels
import Logging
import Synchronization

/// Log lines as JSON objects, one a line (`fm serve --log-format json`):
/// what log collectors (journald's JSON fields, Loki, Elasticsearch) read
/// without a parsing rule. Each line has `time` (ISO 8601, UTC), `level`,
/// `label`, `message`, and the metadata as fields of their own; an access
/// log line's `status` and `ms` are numbers.
package struct JSONLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    private let label: String
    private let write: @Sendable (String) -> Void

    /// - Parameters:
    ///   - label: the logger's label.
    ///   - write: where each line goes (default: standard error, whole lines at once).
    package init(label: String, write: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.write = write
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        let time = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
        var pairs: [(String, GeneratedContent?)] = [
            ("time", WireJSON.string(time)), ("level", WireJSON.string(event.level.rawValue)),
            ("label", WireJSON.string(label)), ("message", WireJSON.string(event.message.description)),
        ]
        for key in fields.keys.sorted() where !["time", "level", "label", "message"].contains(key) {
            pairs.append((key, fields[key].map(Self.json)))
        }
        write(WireJSON.object(pairs).jsonString + "\n")
    }

    /// A metadata value as JSON: integers and floating-point numbers as
    /// numbers, Booleans as such, everything else as its text, lists and dictionaries as such.
    static func json(_ value: Logger.Metadata.Value) -> GeneratedContent {
        switch value {
        case .string(let text): WireJSON.string(text)
        case .stringConvertible(let number as any BinaryInteger): WireJSON.number(Int(number))
        case .stringConvertible(let number as Double) where number.isFinite: WireJSON.number(number)
        case .stringConvertible(let flag as Bool): WireJSON.bool(flag)
        case .stringConvertible(let other): WireJSON.string(other.description)
        case .array(let values): WireJSON.array(values.map(json))
        case .dictionary(let values): WireJSON.object(values.keys.sorted().map { ($0, json(values[$0]!)) })
        }
    }

    /// Standard error, each line written whole under a lock, so lines from
    /// concurrent requests never interleave.
    package static let standardError: @Sendable (String) -> Void = { line in
        lock.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
    }

    private static let lock = Mutex(())
}
